-- Setup: each player holds one of each card; a spare card goes to their secret vault and
-- two more to their deck.
function setup()
  for _, p in ipairs(players.list()) do
    for _, id in ipairs({ "low", "middle", "high" }) do cards.create(id, p, p, "hand") end
    cards.create("middle", p, p, "vault")
    for _, id in ipairs({ "low", "high" }) do cards.create(id, p, p, "deck") end
    zones.shuffle(p, "deck")
  end
end

-- Both players bid coins in secret; the higher bid scores a point (a tie scores nothing).
function bid_phase(round)
  local bids = {}
  for _, p in ipairs(players.list()) do
    local opts = {}
    for n = 0, counters.get(p, "coins") do opts[#opts + 1] = { label = "Bid " .. n, n = n } end
    bids[p] = choose { player = p, prompt = "Your sealed bid", options = opts, secret = true, confirm = true }.n
  end
  say(string.format("Bids revealed: player 1 bid %d, player 2 bid %d", bids[1], bids[2]))
  for _, p in ipairs(players.list()) do counters.spend(p, "coins", bids[p]) end
  if bids[1] ~= bids[2] then counters.add(bids[1] > bids[2] and 1 or 2, "points", 1) end
end

-- Both players play a card face down, then both turn face up; the higher value scores.
function play_phase(round)
  local played = {}
  for _, p in ipairs(players.list()) do
    local opts = {}
    for _, c in ipairs(zones.cards(p, "hand")) do opts[#opts + 1] = { label = "Play " .. c.name, card = c } end
    local c = choose { player = p, prompt = "Play a card face down", options = opts, secret = true, confirm = true }.card
    cards.to_zone(c, p, "table")
    cards.turn_face_down(c)
    played[p] = c
  end
  for _, p in ipairs(players.list()) do cards.turn_face_up(played[p]) end
  local a, b = stat(played[1], "value"), stat(played[2], "value")
  say(string.format("Cards revealed: %s against %s", played[1].name, played[2].name))
  if a ~= b then counters.add(a > b and 1 or 2, "points", 1) end
end

function after_round(round)
  for _, p in ipairs(players.list()) do
    for _, c in ipairs(zones.cards(p, "table")) do cards.to_zone(c, p, "hand") end
  end
  if round >= options.rounds then
    local a, b = counters.get(1, "points"), counters.get(2, "points")
    if a == b then end_game(nil, "a tie") else win(a > b and 1 or 2) end
  end
end
