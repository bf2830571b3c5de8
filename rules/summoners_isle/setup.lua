-- Summoner's Isle: setting up a match, and the start of each round.

--- Each player's pool of creatures (the `copies` of each kind), 5 energy (the
--- counter's start), and their counter on the Turn Order track: in random order,
--- or in seat order by option.
--- The round track starts at 1 with the first round (the engine's round number).
function setup()
  local known = {}
  for id in pairs(defs) do known[id] = true end
  for _, kind in ipairs(options.creature_order) do
    if not known[kind] then error("options.creature_order names no creature called " .. tostring(kind)) end
  end
  for _, p in ipairs(players.list()) do
    for _, kind in ipairs(options.creature_order) do
      for _ = 1, defs[kind].copies do cards.create(kind, p, p, "pool") end
    end
  end
  local order = players.list()
  if options.initial_turn_order == "random" then
    rng.shuffle(order)
  elseif options.initial_turn_order ~= "seats" then
    error("options.initial_turn_order must be random or seats, not " .. tostring(options.initial_turn_order))
  end
  set_turn_order(order)
  say(string.format("The isle for %d players: %d territories, %d summoning locations",
                    players.count(), #territories(), #all_locations()))
  say("Turn order: " .. order_text(order))
end

--- At the start of a round, creatures removed last round return to their pools.
on("round_start", function(ev)
  say(string.format("Round %d of %d", ev.round, last_round()))
  for _, p in ipairs(players.list()) do
    for _, c in ipairs(zones.cards(p, "removed")) do cards.to_zone(c, p, "pool") end
  end
end)
