-- Summoner TCG: setting up a match.

--- Each player builds their deck from their seat's deck list, shuffles it, draws
--- options.opening_hand cards and starts on options.starting_stamina; a random
--- player goes first and play passes in seat order. Every player but the first gets
--- options.not_first_stamina more (0 in the rulebook).
function setup()
  state.vars.out = {}
  state.vars.ledger = {}
  state.vars.turns_taken = {}     -- each player's own turns so far (the toolbar shows them)
  for _, p in ipairs(players.list()) do
    state.vars.ledger[p] = { paid = 0, damage = 0, income = 0 }
    state.vars.turns_taken[p] = 0
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
  if options.not_first_stamina > 0 then   -- (an option outside the rulebook: 0 there)
    for _, p in ipairs(players.list()) do
      if p ~= first then give_head_start(p, options.not_first_stamina) end
    end
  end
end
