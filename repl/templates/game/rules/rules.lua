-- $name: the rules, written by `summon new game $id`. Every function the flow names
-- in game.yaml is defined here; docs/writing-a-game.md explains the flow, and
-- docs/api.md every engine call.

--- The game's start: each seat's deck is its card set (each card as many times as its
--- `copies`), shuffled; everyone draws three.
function setup()
  for _, p in ipairs(players.list()) do
    for _, id in ipairs(sets[players.info(p).set].cards) do
      for _ = 1, defs[id].copies or 1 do cards.create(id, p, p, "deck") end
    end
    zones.shuffle(p, "deck")
    zones.draw(p, "deck", "hand", 3)
  end
end

--- Phase play: the player may play one card from their hand and score its points.
function play_phase(p)
  local opts = { { label = "Pass" } }
  for _, c in ipairs(zones.cards(p, "hand")) do
    local n = stat(c, "points")
    opts[#opts + 1] = { label = string.format("Play %s (%d point%s)", c.name, n, n == 1 and "" or "s"), card = c }
  end
  local pick = choose { player = p, prompt = "Play a card?", options = opts }
  if not pick.card then return end
  cards.to_zone(pick.card, p, "played")
  score(p, stat(pick.card, "points"))
  emit("after_play", { card = pick.card, player = p })
end

--- Gives a player points; at the goal they win.
function score(p, n)
  counters.add(p, "points", n)
  say(string.format("Player %d scores %d (now %d)", p, n, counters.get(p, "points")))
  if counters.get(p, "points") >= options.goal then win(p, "reached " .. options.goal .. " points") end
end

--- Phase draw: the player draws a card; after options.max_turns turns the game is a draw.
function draw_phase(p)
  zones.draw(p, "deck", "hand", 1)
  if state.turn >= options.max_turns then end_game(nil, "the turn limit") end
end
