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
  for _, s in ipairs(turn_track()) do
    if is_location(s) then
      error("options.turn_order_track: region " .. tostring(options.turn_order_track) ..
            " holds summoning locations (" .. s .. "), where creatures would meet the counters; name the track's own region")
    end
  end
  local known_dice = dice.names()
  local die_known = false
  for _, d in ipairs(known_dice) do die_known = die_known or d == options.attack_die end
  if not die_known then
    error("options.attack_die names no die of the game: " .. tostring(options.attack_die) ..
          " (the dice: " .. table.concat(known_dice, ", ") .. ")")
  end
  if counters.get(1, "energy") >= options.winning_energy then
    error("options.winning_energy is " .. options.winning_energy .. ", which every player has already at the start (" ..
          counters.get(1, "energy") .. "): the game would be won before it begins")
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
