-- Auction: the rounds example of docs/writing-a-game.md and docs/cookbook.md (not a
-- shipped game). In a rounds game the engine counts rounds and runs every phase once
-- per round; who acts, and in what order, is the rules' business: here the player
-- holding initiative (state.vars.initiative) acts first, and the rules keep
-- state.active pointing at them.

--- The lots (six of each kind, nobody's) shuffled face down; player 1 holds initiative.
function setup()
  for _, id in ipairs({ "shell", "pearl", "gem" }) do
    for _ = 1, 6 do cards.create(id, nil, "lots") end
  end
  zones.shuffle("lots")
  set_initiative(1)
end

--- Gives initiative to p: p acts first in this round's phases.
function set_initiative(p)
  state.vars.initiative = p
  state.active = p
end

--- Phase bid: lots for the round go on offer, then everyone bids coins for initiative in
--- secret. The highest bid takes initiative and pays; a tie goes to the tied player who
--- comes first counting from the current holder. Other bids cost nothing.
function bid_phase(round)
  zones.draw("lots", "market", players.count())
  local bids = {}
  for _, p in ipairs(players.list()) do
    local opts = {}
    for n = 0, counters.get(p, "coins") do opts[#opts + 1] = { label = "Bid " .. n, n = n } end
    bids[p] = choose { player = p, prompt = "Your secret bid for initiative", options = opts, secret = true }.n
  end
  local best = nil
  for _, p in ipairs(players.from(state.vars.initiative)) do
    if best == nil or bids[p] > bids[best] then best = p end
  end
  local shown = {}
  for _, p in ipairs(players.list()) do shown[#shown + 1] = string.format("player %d bid %d", p, bids[p]) end
  say("Bids: " .. table.concat(shown, ", ") .. string.format("; player %d takes initiative", best))
  counters.spend(best, "coins", bids[best])
  set_initiative(best)
end

--- Phase pick: in initiative order, each player takes one lot from the market.
function pick_phase(round)
  for _, p in ipairs(players.from(state.vars.initiative)) do
    local opts = {}
    for _, lot in ipairs(zones.cards("market")) do opts[#opts + 1] = { label = "Take " .. lot.name, lot = lot } end
    local lot = choose { player = p, prompt = "Take a lot", options = opts }.lot
    cards.to_zone(lot, p, "won")
    counters.add(p, "points", stat(lot, "value"))
  end
end

--- After the last round, most points wins (a tie is a draw).
function after_round(round)
  if round < options.rounds then return end
  local best, tie = 1, false
  for p = 2, players.count() do
    local a, b = counters.get(p, "points"), counters.get(best, "points")
    if a > b then best, tie = p, false elseif a == b then tie = true end
  end
  if tie then end_game(nil, "a tie on points") else win(best, "most points") end
end
