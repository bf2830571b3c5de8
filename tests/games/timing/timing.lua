-- Player 1 has a Doubler (s1) and an Adder (s2), player 2 an Adder (s4). Each turn
-- the active player may ring; after turn 2 the game ends with the higher score
-- winning. A scenario may add a Chainer, whose effect sets off an `echo`.
function setup()
  cards.place(cards.create("doubler", 1), "s1")
  cards.place(cards.create("adder", 1), "s2")
  cards.place(cards.create("adder", 2), "s4")
end

function act(p)
  local pick = choose { player = p, prompt = "Ring the bell?", options = { "Ring", "Pass" } }
  if pick.label == "Ring" then
    say("Player " .. p .. " rings")
    emit("ring", { player = p })
  end
  if state.turn >= 2 then
    local a, b = counters.get(1, "score"), counters.get(2, "score")
    if a == b then end_game(nil, "a tie") else win(a > b and 1 or 2) end
  end
end
