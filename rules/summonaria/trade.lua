-- Summonaria: trading resource cards between two players, and transmuting. The
-- player whose turn it is may do both at every step of the turn where they choose
-- something (trading_options at the end of the step's options); the others may
-- propose trades in the trades step at the start of each turn (trades_phase).

--- A player puts cards face down for a trade, one at a time, in secret: nobody else
--- learns which cards (only how many lie in their offer zone).
local function pick_offer(p, promise)
  while true do
    local opts, seen = {}, {}
    for _, c in ipairs(zones.cards(p, "hand")) do
      if not seen[c.def] then
        seen[c.def] = true
        opts[#opts + 1] = { label = "Hand over a " .. c.name, card = c }
      end
    end
    opts[#opts + 1] = { label = "Done: hand over the cards put down", done = true }
    local pick = choose { player = p, secret = true, confirm = true, options = opts,
                          prompt = string.format("Trade: put cards face down to hand over (%s; %d put down)",
                                                 promise, zones.count(p, "offer")) }
    if pick.done then return end
    cards.to_zone(pick.card, p, "offer")
  end
end

--- A trade between two players, p proposing to q: a proposal (what each says they
--- will hand over), accepted or refused; then each puts cards face down in secret,
--- the proposer first; then both offers change hands at once. A player whose hand
--- goes over the limit discards down to it.
function trade(p, q, give_kind, give_n, want_kind, want_n)
  local promise = string.format("player %d promises %d %s for player %d's %d %s", p, give_n,
                                defs[give_kind].name, q, want_n, defs[want_kind].name)
  say(string.format("Player %d proposes a trade to player %d: %d %s for %d %s", p, q, give_n,
                    defs[give_kind].name, want_n, defs[want_kind].name))
  local answer = choose { player = q, prompt = "Player " .. p .. " proposes: " .. promise,
                          options = { { label = "Accept the trade", yes = true }, { label = "Refuse the trade" } } }
  if not answer.yes then
    say(string.format("Player %d refuses", q))
    return false
  end
  pick_offer(p, promise)
  pick_offer(q, promise)
  local a, b = zones.cards(p, "offer"), zones.cards(q, "offer")
  for _, c in ipairs(a) do cards.to_zone(c, q, "hand") end
  for _, c in ipairs(b) do cards.to_zone(c, p, "hand") end
  say(string.format("Trade done: player %d hands over %d card%s, player %d hands over %d", p, #a,
                    #a == 1 and "" or "s", q, #b))
  discard_down_to(p, options.hand_limit, "Hand limit after the trade")
  discard_down_to(q, options.hand_limit, "Hand limit after the trade")
  return true
end

--- How many trades a player has proposed since their own turn began (in it, and in
--- the trades steps of the others' turns after it).
local function proposed(p) return state.vars.proposed[p] end

--- The trades a player may propose now: to each other player holding cards (only
--- to `to`, when given), one kind of theirs for another kind (the counts are asked
--- next). None once they have proposed options.trades_per_turn trades since their
--- own turn began: each player proposes at most that many a round, wherever.
function trade_options(p, to)
  local out = {}
  if proposed(p) >= options.trades_per_turn or zones.count(p, "hand") == 0 then return out end
  local have = hand_counts(p)
  for _, q in ipairs(players.list()) do
    if q ~= p and (to == nil or q == to) and zones.count(q, "hand") > 0 then
      for _, g in ipairs(resource_kinds()) do
        if have[g] > 0 then
          for _, w in ipairs(resource_kinds()) do
            if w ~= g then
              out[#out + 1] = { label = string.format("Propose a trade to player %d: your %s for their %s", q,
                                                      defs[g].name, defs[w].name),
                                trade = { q = q, give = g, want = w } }
            end
          end
        end
      end
    end
  end
  return out
end

--- Asks how many of each side the proposal names, then trades.
function propose_trade(p, t)
  state.vars.proposed[p] = proposed(p) + 1
  local opts = {}
  for g = 1, math.min(2, hand_counts(p)[t.give]) do
    for w = 1, 2 do
      opts[#opts + 1] = { label = string.format("Offer %d %s for %d %s", g, defs[t.give].name, w, defs[t.want].name),
                          g = g, w = w }
    end
  end
  local n = choose { player = p, prompt = "How many of each?", options = opts }
  trade(p, t.q, t.give, n.g, t.want, n.w)
end

--- Transmutes the player may make: options.transmute_cost cards of one kind onto
--- the exhausted pile for one card of another kind taken from it.
function transmute_options(p)
  local out = {}
  local have = hand_counts(p)
  local pile = {}
  for _, c in ipairs(zones.cards("exhausted")) do pile[c.def] = c end
  for _, g in ipairs(resource_kinds()) do
    if have[g] >= options.transmute_cost then
      for _, w in ipairs(resource_kinds()) do
        if w ~= g and pile[w] then
          out[#out + 1] = { label = string.format("Transmute %d %s into a %s", options.transmute_cost,
                                                  defs[g].name, defs[w].name),
                            transmute = { give = g, want = w } }
        end
      end
    end
  end
  return out
end

function transmute(p, t)
  spend_kind(p, t.give, options.transmute_cost)
  local got
  for _, c in ipairs(zones.cards("exhausted")) do
    if c.def == t.want then got = c end
  end
  cards.to_zone(got, p, "hand")
  say(string.format("Player %d transmutes %d %s into a %s", p, options.transmute_cost, defs[t.give].name,
                    defs[t.want].name))
end

-- Trading at any time ---------------------------------------------------------------

--- What the player whose turn it is may do at any of their choices besides the
--- step's own options: the transmutes they can make, then the trades they may
--- propose. The steps put these at the end of their options (before the option that
--- ends the step, if there is one), with the same labels everywhere.
function trading_options(p)
  local out = transmute_options(p)
  for _, o in ipairs(trade_options(p)) do out[#out + 1] = o end
  return out
end

--- Carries out an option of trading_options; returns false for any other option.
function take_trading_option(p, pick)
  if pick.transmute then
    transmute(p, pick.transmute)
  elseif pick.trade then
    propose_trade(p, pick.trade)
  else
    return false
  end
  return true
end

--- The trades step, at the start of p's turn before the draw: the other players, in
--- seat order after p, are each asked whether to propose a trade, and to whom (any
--- other player holding cards), then which; "No trade" passes. Each may propose as
--- many as their cap still allows (trade_options). Nobody is asked who could not
--- propose anything (the cap reached, no cards, or nobody else holding cards).
function trades_phase(p)
  local others = players.from(p)
  for i = 2, #others do
    local q = others[i]
    while true do
      local to = {}
      for _, o in ipairs(trade_options(q)) do
        if to[#to] == nil or to[#to].to ~= o.trade.q then
          to[#to + 1] = { label = "Propose a trade to player " .. o.trade.q, to = o.trade.q }
        end
      end
      if #to == 0 then break end
      to[#to + 1] = { label = "No trade", skip = true }
      local pick = choose { player = q, options = to,
                            prompt = string.format("Player %d's turn begins: propose a trade? (you hold %d resource cards)",
                                                   p, zones.count(q, "hand")) }
      if pick.skip then break end
      local opts = trade_options(q, pick.to)
      opts[#opts + 1] = { label = "No trade", skip = true }
      pick = choose { player = q, options = opts, prompt = "Which trade do you propose to player " .. pick.to .. "?" }
      if pick.skip then break end
      propose_trade(q, pick.trade)
    end
  end
end
