-- Summonaria: trading resource cards between two players, and transmuting. The
-- player whose turn it is may do both at every step of the turn where they choose
-- something (trading_options at the end of the step's options); the others may
-- propose trades in the trades step at the start of each turn (trades_phase).
--
-- state.vars.trade is the trade under way, public as the proposal is: who proposes to
-- whom, the kinds and counts chosen so far, the stage ("forming" while the proposer
-- chooses, "asked" while the other answers, "offers" while the cards are put down),
-- whose turn it is to put cards down (`putting`: "p" or "q") and who has finished
-- (`p_done`, `q_done`). Never which cards lie in an offer zone: only their owner sees
-- them. state.vars.word[p] = {kept, broken} counts, for each player, the trades in
-- which they handed over exactly what they promised, or not; it is said aloud after
-- every exchange (see the README's "Keeping one's word"). The bots' evaluation reads
-- both (evaluate.lua).

--- Whether an offer zone holds exactly what was promised: n cards, all of the kind.
local function matches(p, kind, n)
  local put = zones.cards(p, "offer")
  if #put ~= n then return false end
  for _, c in ipairs(put) do
    if c.def ~= kind then return false end
  end
  return true
end

--- A player puts cards face down for a trade, one at a time, in secret: nobody else
--- learns which cards (only how many lie in their offer zone).
local function pick_offer(p, promise, side)
  state.vars.trade.putting = side
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
    if pick.done then break end
    cards.to_zone(pick.card, p, "offer")
  end
  state.vars.trade[side .. "_done"] = true
end

--- Adds a player's side of a finished exchange to their public record, and says it.
local function record_word(p, kept)
  local w = state.vars.word[p]
  if kept then w.kept = w.kept + 1 else w.broken = w.broken + 1 end
  say(string.format("Player %d %s (kept %d, broken %d)", p,
                    kept and "handed over what they promised" or "did not hand over what they promised",
                    w.kept, w.broken))
end

--- A trade between two players, p proposing to q: a proposal (what each says they
--- will hand over), accepted or refused; then each puts cards face down in secret,
--- the proposer first; then both offers change hands at once, and whether each side
--- handed over exactly what it promised (kind and count) is said and kept in
--- state.vars.word. A player whose hand goes over the limit discards down to it.
function trade(p, q, give_kind, give_n, want_kind, want_n)
  state.vars.trade = { p = p, q = q, give = give_kind, gn = give_n, want = want_kind, wn = want_n, stage = "asked" }
  local promise = string.format("player %d promises %d %s for player %d's %d %s", p, give_n,
                                defs[give_kind].name, q, want_n, defs[want_kind].name)
  say(string.format("Player %d proposes a trade to player %d: %d %s for %d %s", p, q, give_n,
                    defs[give_kind].name, want_n, defs[want_kind].name))
  local answer = choose { player = q, prompt = "Player " .. p .. " proposes: " .. promise,
                          options = { { label = "Accept the trade", yes = true }, { label = "Refuse the trade" } } }
  if not answer.yes then
    state.vars.trade = nil
    say(string.format("Player %d refuses", q))
    return false
  end
  state.vars.trade.stage = "offers"
  pick_offer(p, promise, "p")
  pick_offer(q, promise, "q")
  local kept_p, kept_q = matches(p, give_kind, give_n), matches(q, want_kind, want_n)
  local a, b = zones.cards(p, "offer"), zones.cards(q, "offer")
  for _, c in ipairs(a) do cards.to_zone(c, q, "hand") end
  for _, c in ipairs(b) do cards.to_zone(c, p, "hand") end
  state.vars.trade = nil
  say(string.format("Trade done: player %d hands over %d card%s, player %d hands over %d", p, #a,
                    #a == 1 and "" or "s", q, #b))
  record_word(p, kept_p)
  record_word(q, kept_q)
  discard_down_to(p, options.hand_limit, "Hand limit after the trade")
  discard_down_to(q, options.hand_limit, "Hand limit after the trade")
  return true
end

--- How many trades a player has proposed since their own turn began (in it, and in
--- the trades steps of the others' turns after it).
local function proposed(p) return state.vars.proposed[p] end

--- Whether the player whose turn it is backed out of a proposal in this step (they
--- are offered no more proposals until the next step).
local function withdrew(p)
  local t = state.vars.turn
  return t ~= nil and t.withdrawn == state.phase and state.active == p
end

--- The players p may propose a trade to now: every other player holding cards, in
--- seat order. None once p has proposed options.trades_per_turn trades since their own
--- turn began (each player proposes at most that many a round, wherever), or holds no
--- cards, or backed out of a proposal in this step of their turn.
function trade_partners(p)
  local out = {}
  if proposed(p) >= options.trades_per_turn or zones.count(p, "hand") == 0 or withdrew(p) then return out end
  for _, q in ipairs(players.list()) do
    if q ~= p and zones.count(q, "hand") > 0 then out[#out + 1] = q end
  end
  return out
end

--- The options to propose a trade: one for each player p may propose to.
function trade_options(p)
  local out = {}
  for _, q in ipairs(trade_partners(p)) do
    out[#out + 1] = { label = "Propose a trade to player " .. q, trade_to = q }
  end
  return out
end

--- A proposal to q, asked in short questions: which kind p promises, which kind they
--- ask for, then how many of each (1 or 2). A promise is only words (the cards put down
--- may be others, or none), so every kind and count is offered whatever p holds: options
--- drawn from the hand would tell everyone what it holds. The questions are secret until
--- the proposal is made, so one p backs out of ("No trade", in the first two: nothing is
--- proposed and the cap is not used) tells nobody anything. Then the trade.
--- Returns false when p backed out.
function propose_trade(p, q)
  state.vars.trade = { p = p, q = q, stage = "forming" }
  local opts = {}
  for _, g in ipairs(resource_kinds()) do
    opts[#opts + 1] = { label = "Promise " .. defs[g].name, kind = g }
  end
  opts[#opts + 1] = { label = "No trade", skip = true }
  local pick = choose { player = p, options = opts, secret = true,
                        prompt = string.format("A trade with player %d: which resource do you promise?", q) }
  if pick.skip then state.vars.trade = nil return false end
  local give = pick.kind
  opts = {}
  for _, w in ipairs(resource_kinds()) do
    if w ~= give then opts[#opts + 1] = { label = "Ask for their " .. defs[w].name, kind = w } end
  end
  opts[#opts + 1] = { label = "No trade", skip = true }
  pick = choose { player = p, options = opts, secret = true,
                  prompt = string.format("A trade with player %d: your %s for which of theirs?", q, defs[give].name) }
  if pick.skip then state.vars.trade = nil return false end
  local want = pick.kind
  state.vars.proposed[p] = proposed(p) + 1
  opts = {}
  for g = 1, 2 do
    for w = 1, 2 do
      opts[#opts + 1] = { label = string.format("Offer %d %s for %d %s", g, defs[give].name, w, defs[want].name),
                          g = g, w = w }
    end
  end
  local n = choose { player = p, prompt = "How many of each?", options = opts }
  trade(p, q, give, n.g, want, n.w)
  return true
end

--- Transmutes the player may make: options.transmute_cost cards of one kind onto
--- the exhausted pile for one card of another kind taken from it.
function transmute_options(p)
  local out = {}
  local have = hand_counts(p)
  local enough = false   -- (the pile is looked through only when some kind can be given)
  for _, g in ipairs(resource_kinds()) do
    if have[g] >= options.transmute_cost then enough = true end
  end
  if not enough then return out end
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
--- step's own options: the transmutes they can make, then a proposal to each player
--- they may propose to. The steps put these at the end of their options (before the
--- option that ends the step, if there is one), with the same labels everywhere.
function trading_options(p)
  local out = transmute_options(p)
  for _, o in ipairs(trade_options(p)) do out[#out + 1] = o end
  return out
end

--- Carries out an option of trading_options; returns false for any other option.
--- Backing out of a proposal leaves no more proposals for the rest of the step.
function take_trading_option(p, pick)
  if pick.transmute then
    transmute(p, pick.transmute)
  elseif pick.trade_to then
    if not propose_trade(p, pick.trade_to) and state.vars.turn then state.vars.turn.withdrawn = state.phase end
  else
    return false
  end
  return true
end

--- The trades step, at the start of p's turn before the draw: the other players, in
--- seat order after p, are each asked whether to propose a trade, and to whom (any
--- other player holding cards), then which (propose_trade); "No trade" passes. Each
--- may propose as many as their cap still allows. Nobody is asked who could not
--- propose anything (the cap reached, no cards, or nobody else holding cards).
--- The step's question (game.yaml `offer`), one a call: the player asked is
--- players.from(p)[state.vars.trades_at]; nil once nobody is left to ask.
function trades_offer(p)
  local others = players.from(p)
  local i = state.vars.trades_at or 2
  while i <= #others do
    local q = others[i]
    local to = trade_options(q)
    if #to > 0 then
      to[#to + 1] = { label = "No trade", skip = true }
      state.vars.trades_at = i
      return { player = q, options = to,
               prompt = string.format("Player %d's turn begins: propose a trade? (you hold %d resource cards)",
                                      p, zones.count(q, "hand")) }
    end
    i = i + 1
  end
  state.vars.trades_at = nil
  return nil
end

--- Carries out the trades step's answer: after a trade the same player is asked again,
--- after "No trade" (or a withdrawn proposal) the next one.
function trades_phase(p, pick)
  local i = state.vars.trades_at
  local q = players.from(p)[i]
  local traded = not pick.skip and propose_trade(q, pick.trade_to)
  state.vars.trades_at = traded and i or i + 1
  return true
end
