-- Each player has one pawn; each round everyone in seat order may step it along a
-- link; then each scores their pawn's region bonus. Highest score after the last
-- round wins; a tie is a draw. A shared supply holds a spare pawn and a shared
-- counter counts everyone's steps (the engine's shared zones and counters).
function setup()
  local starts = { "north_a", "south_b", "south_a" }
  for _, p in ipairs(players.list()) do
    local c = cards.create("pawn", p)
    cards.place(c, starts[p])
  end
  cards.create("pawn", 1, "supply")
end

function act(round)
  for _, p in ipairs(players.list()) do
    local pawn = cards.on_board(function(c) return c.owner == p end)[1]
    local opts = { { label = "Stay" } }
    for _, s in ipairs(board.neighbors(pawn.space)) do
      if board.is_empty(s) then opts[#opts + 1] = { label = "Step to " .. s, to = s } end
    end
    local pick = choose { player = p, prompt = "Step?", options = opts }
    if pick.to then
      cards.place(pawn, pick.to)
      counters.add("steps", 1)
      emit("after_step", { card = pawn })
    end
  end
end

function after_round(round)
  for _, p in ipairs(players.list()) do
    local pawn = cards.on_board(function(c) return c.owner == p end)[1]
    counters.add(p, "score", board.region_info(board.region(pawn.space)).bonus)
  end
  if round >= options.rounds then
    local best, who, tie = -1, nil, false
    for _, p in ipairs(players.list()) do
      local s = counters.get(p, "score")
      if s > best then best, who, tie = s, p, false elseif s == best then tie = true end
    end
    if tie then end_game(nil, "a tie") else win(who) end
  end
end
