-- Summoner TCG: setting up a match.

--- Each player builds their deck from their seat's deck list, shuffles it, draws
--- options.opening_hand cards and starts on options.starting_stamina; a random
--- player goes first and play passes in seat order.
function setup()
  state.vars.out = {}
  state.vars.ledger = {}
  for _, p in ipairs(players.list()) do
    state.vars.ledger[p] = { paid = 0, damage = 0, income = 0 }
    local set = sets[players.info(p).set]
    if set.deck == nil then
      error("summoner_tcg: the card set '" .. set.id .. "' has no deck list (deck:)")
    end
    for _, entry in ipairs(set.deck) do
      for _ = 1, entry.copies or 1 do cards.create(entry.card, p, p, "deck") end
    end
    zones.shuffle(p, "deck")
    zones.draw(p, "deck", "hand", options.opening_hand)
    counters.set(p, "stamina", options.starting_stamina)
  end
  local first = rng.int(1, players.count())
  state.active = first
  say(string.format("Player %d goes first", first))
end
