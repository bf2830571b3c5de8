-- Events that rules emit and card hooks hear; modifiers that stat queries pass through.
local E = ...
local getinfo = debug.getinfo   -- (kept: the host removes debug once the engine files have run)

-- Notes of chance and hidden information (shuffles, rolls, draws): the host reads
-- them as the barrier for fair undo and names the last one when it refuses.
-- One note per decision at most (the latest), so the log stays small. seats: the
-- players who learned something (a card came into their sight); nil: everyone (chance).
-- private: what the note says is that one seat's alone (players.learned's words), kept in
-- `told` for it, so that a note of the same decision does not name it to another seat.
E.chance_log = {}
function E.note(kind, data, seats, private)
  local log, n = E.chance_log, E.decisions
  local met = E.met   -- (summon check's fairness audit: who was shown something by this answer)
  if met ~= nil and (kind == "reveal" or private) then E.met_shown(met, seats, data, kind) end
  local about = type(data) == "table" and (data.zone or data.die) or nil
  local text = about and (kind .. " (" .. tostring(about) .. ")") or kind
  local last = log[#log]
  local told = last and last.decision == n and last.told or nil
  if private then
    told = told and E.copy(told) or {}
    told[seats[1]] = text
    if last and last.decision == n then text = last.kind end   -- (the others read what they read)
  end
  if last and last.decision == n then
    if last.seats == nil or seats == nil then seats = nil
    else
      local union, seen = {}, {}
      for _, list in ipairs({ last.seats, seats }) do
        for _, p in ipairs(list) do
          if not seen[p] then seen[p] = true; union[#union + 1] = p end
        end
      end
      table.sort(union)
      seats = union
    end
    log[#log] = { decision = n, kind = text, seats = seats, told = told }   -- (a new table: forks share the old)
  else
    log[#log + 1] = { decision = n, kind = text, seats = seats, told = told }
  end
end

local listeners = {}   -- rules-level listeners: name -> list of functions
E.listeners = listeners

-- Whether the game's rules files have run (Runtime): listeners and rules modifiers
-- belong to the runtime, so they are added then, never while a match runs.
E.rules_loaded = false
E.in_setup = false      -- the match runs its scenario's setup (E.run_flow)
E.setup_again = false   -- ... in a fork, which runs it again

-- Whether on() and add_modifier() may add to the runtime now: as the rules load, or in a
-- scenario's setup as the match itself runs it (not the console while it waits there),
-- before it asks anything: a fork runs the setup again from its start, its answers given,
-- and adds nothing then (E.setup_again), so the first run must have added it all by then.
local function may_add()
  return not E.rules_loaded or (E.in_setup and E.decisions == 0 and E.match_co ~= nil
                                and coroutine.running() == E.match_co)
end

--- The error of on() or add_modifier() called once the rules have loaded.
function E.only_as_rules_load(fn, what)
  if E.in_setup and E.decisions > 0 then
    error(fn .. ": a scenario's setup adds " .. what .. " before it asks any question (a copy of the match " ..
          "runs the setup again with the answers given, and adds none then)", 3)
  end
  error(fn .. ": " .. what .. " is added as the rules load (at the top level of a rules file), not while a " ..
        "match runs: one added from a card's script or the console would stay for every later match of the " ..
        "runtime, and no replay or saved file would know of it (add it in the rules, acting only when the " ..
        "state says so, and reload)", 3)
end

-- (kept for the files loaded on demand, checking.lua and scenario.lua: the host removes
-- debug once the engine files have run)
E.debug = { getupvalue = debug.getupvalue, upvalueid = debug.upvalueid, getinfo = debug.getinfo }

-- The listeners and rules modifiers the scenario's setup running now has added, each as
-- {fn, what} (E.run_flow empties it before and after the setup; kept with each match).
E.setup_added = {}

--- Registers a rules-level listener for an event (called before card hooks).
function E.on(name, fn)
  if not E.game.hookset[name] then
    error("on: no event called " .. E.show(name) .. E.suggest(name, E.game.hooks), 2)
  end
  if type(fn) ~= "function" then
    error("on: the listener of " .. name .. " must be a function(ev), not " .. E.show(fn), 2)
  end
  if not may_add() then E.only_as_rules_load("on", "a listener") end
  if E.setup_again then return end   -- (a fork runs a scenario's setup again: the first run added it)
  local l = listeners[name] or {}
  l[#l + 1] = fn
  listeners[name] = l
  if E.in_setup then E.setup_added[#E.setup_added + 1] = { fn, "listener for " .. name } end
end

local depth = 0
local chain = {}
local deferred = {}   -- depth of the event being emitted -> effects deferred during it

-- Plays, for the balance lab (summon sim --report): the card of every event that
-- game.yaml names under `balance: played`, tallied per definition and seat (the event's
-- player, else the card's controller). Kept beside the state, never in it, so a game's
-- states and their hashes are the same whether or not it declares such events.
E.plays = {}

local function tally_play(ev)
  local c = ev.card
  if type(c) ~= "table" or type(c.def) ~= "string" then return end
  local seat = ev.player
  if math.type(seat) ~= "integer" then seat = c.controller end
  if math.type(seat) ~= "integer" then return end
  local by_seat = E.plays[c.def]
  if not by_seat then
    by_seat = {}
    E.plays[c.def] = by_seat
  end
  by_seat[seat] = (by_seat[seat] or 0) + 1
end

--- The plays tallied so far as a list of {def, seat, n}, sorted by def then seat.
function E.plays_list()
  local out = {}
  for def, by_seat in pairs(E.plays) do
    for seat, n in pairs(by_seat) do out[#out + 1] = { def = def, seat = seat, n = n } end
  end
  table.sort(out, function(a, b)
    if a.def ~= b.def then return a.def < b.def end
    return a.seat < b.seat
  end)
  -- one text for the host, a line "def seat n" per entry (ids hold no spaces): one call
  -- across instead of three per entry
  for i, p in ipairs(out) do out[i] = p.def .. " " .. p.seat .. " " .. p.n end
  return table.concat(out, "\n")
end

E.match_part(function(m)
  m.chance_log, m.depth, m.chain, m.plays, m.deferred = E.chance_log, depth, chain, E.plays, deferred
end, function(m)
  E.chance_log, depth, chain, E.plays = m.chance_log, m.depth, m.chain, m.plays or {}
  deferred = m.deferred or {}
end)

local function describe(c)
  return string.format("%s (card %d)", c.name, c.id)
end
E.describe = describe

--- How deep the event chain and the context stack are now, to put back after a
--- script catches an error (its pcall) that skipped the code unwinding them.
function E.call_depth()
  return depth, E.context_depth()
end

function E.restore_call_depth(d, ctx)
  for i = depth, d + 1, -1 do
    chain[i] = nil
    deferred[i] = nil
  end
  depth = d
  E.restore_context_depth(ctx)
end

local function call_hook(fn, what, card, ...)
  E.push_context(what, card)
  fn(...)
  E.pop_context()
end

-- "hook NAME" and "rules listener for NAME", made once per name (contexts for errors)
local hook_what = setmetatable({}, { __index = function(t, name)
  local s = "hook " .. name
  t[name] = s
  return s
end })
local listener_what = setmetatable({}, { __index = function(t, name)
  local s = "rules listener for " .. name
  t[name] = s
  return s
end })

local NO_LISTENERS = {}

local DEFERRED_WHAT = "deferred effect"

-- Resolves the effects deferred while the event at depth d was emitted. With
-- game.yaml `effects: {order: active_player}` the active player picks which of two
-- or more resolves next; otherwise they resolve in the order they were deferred.
-- Effects that a resolving effect defers itself resolve right after it, before the
-- rest (an effect that happens after another comes before any other effect).
local function resolve_deferred(d)
  local q = deferred[d]
  if q == nil then return end
  deferred[d] = nil
  local ask = E.game.effects_order == "active_player"
  while #q > 0 do
    if E.state.over then return end
    local i = 1
    local active = E.state.active
    if ask and #q > 1 and E.state.players[active] then
      -- effects with the same label are alike: one option for them (the first)
      local opts, seen = {}, {}
      for k = 1, #q do
        local label = q[k].label
        if not seen[label] then
          seen[label] = true
          opts[#opts + 1] = { label = label, effect = k }
        end
      end
      if #opts > 1 then
        i = E.choose { player = active, prompt = "These effects happen at the same time: which resolves first?",
                       options = opts }.effect
      end
    end
    local e = table.remove(q, i)
    call_hook(e.fn, DEFERRED_WHAT, e.card)
    resolve_deferred(d)
  end
end

--- Queues an effect that an event sets off, to resolve once every listener and
--- hook of that event has run (before emit returns). Effects deferred during one
--- event happen at the same time: when game.yaml says `effects: {order: active_player}`
--- and two or more are pending, the active player chooses their order (by label;
--- effects with the same label count as alike and are offered once, the first of
--- them resolving first); otherwise (`order: fixed`, the default) they resolve in
--- the order deferred.
--- Outside any event the effect resolves at once. The effect should check again,
--- when it runs, that it can still happen.
--- Errors: fn not a function; label not a string.
--- Example: defer(function() deal_damage(t, 1, self) end, "Scout deals 1 damage to c4", self)
function E.defer(fn, label, card)
  E.not_in_modifier("defer")
  if type(fn) ~= "function" then error("defer: expected a function, got " .. type(fn), 2) end
  if type(label) ~= "string" then error("defer: the label must be text, got " .. type(label), 2) end
  if depth == 0 then
    call_hook(fn, DEFERRED_WHAT, card)
    return
  end
  local q = deferred[depth]
  if q == nil then
    q = {}
    deferred[depth] = q
  end
  q[#q + 1] = { fn = fn, label = label, card = card }
end

--- Emits an event: rules listeners first, then the hook of that name on every
--- card in play (the active player's cards first, then in seat order), then on
--- ev.card if it is not in play (it has just left play, or is in a hand or deck). Returns ev, which hooks may have changed.
function E.emit(name, ev)
  E.not_in_modifier("emit")
  if not E.game.hookset[name] then
    error("emit: no event called " .. E.show(name) .. E.suggest(name, E.game.hooks), 2)
  end
  if ev ~= nil and type(ev) ~= "table" then
    error("emit: the event's data must be a table (emit(\"" .. name .. "\", {card = c, ...})), not " .. E.show(ev), 2)
  end
  ev = ev or {}
  ev.event = name
  if E.game.played_set[name] then tally_play(ev) end
  depth = depth + 1
  chain[depth] = name
  if depth > E.limits.trigger_depth then
    local c = table.concat(chain, " -> ", math.max(1, depth - 8), depth)
    depth = 0
    chain = {}
    deferred = {}
    error("events triggered each other more than " .. E.limits.trigger_depth ..
          " levels deep (... " .. c .. ")", 2)
  end
  local ls = listeners[name] or NO_LISTENERS
  for i = 1, #ls do
    call_hook(ls[i], listener_what[name], nil, ev)
  end
  if not E.with_fn.hooks[name] then
    if deferred[depth] then resolve_deferred(depth) end
    chain[depth] = nil
    depth = depth - 1
    return ev
  end
  local defs = E.plain_defs or E.defs
  local subject = ev.card
  local subject_def = type(subject) == "table" and defs[subject.def]
  local subject_hook = subject_def and subject_def.hooks[name]
  local in_play = E.in_play_with("hooks", name)
  if #in_play > 0 or subject_hook then
    local hooked, seen = {}, {}
    local n = #E.state.players
    local active = E.state.active or 1
    for k = 0, n do
      -- the active player's cards first, then in seat order, then those nobody controls
      -- (cards.create with no owner)
      local p = k < n and (active - 1 + k) % n + 1 or nil
      for i = 1, #in_play do
        local c = in_play[i]
        if c.controller == p then
          hooked[#hooked + 1] = c
          seen[c] = true
        end
      end
    end
    if subject_hook and not seen[subject] then
      hooked[#hooked + 1] = subject
    end
    for i = 1, #hooked do
      local c = hooked[i]
      -- a card removed by an earlier hook no longer hears the event, unless it is the subject
      if c == subject or c.space or E.in_play_zone(c.zone) then
        call_hook(defs[c.def].hooks[name], hook_what[name], c, c, ev)
      end
    end
  end
  if deferred[depth] then resolve_deferred(depth) end
  chain[depth] = nil
  depth = depth - 1
  return ev
end

function E.in_play_zone(key)
  if not key then return false end
  local name = key:match("^([^:]+)")
  return E.game.in_play_set[name] == true
end

-------------------------------------------------------------------------------
-- Stats and modifiers
-------------------------------------------------------------------------------
local rules_modifiers = {}
local rules_modifier_at = {}   -- fn -> "file:line" where it is defined (for the message of a bad result)
local rules_modifier_of = {}   -- context depth -> the rules' modifier whose context it is (for not_in_modifier)

--- Registers a rules-level modifier: fn(card, value) -> value.
function E.add_modifier(stat_name, fn)
  if not E.game.statset[stat_name] then
    error("add_modifier: no stat called " .. E.show(stat_name) .. E.suggest(stat_name, E.game.stats) ..
          " (the game's stats: " .. table.concat(E.game.stats, ", ") .. ")", 2)
  end
  if type(fn) ~= "function" then
    error("add_modifier: the modifier of " .. tostring(stat_name) .. " must be a function(card, value), not " ..
          E.show(fn), 2)
  end
  if not may_add() then E.only_as_rules_load("add_modifier", "a modifier") end
  if E.setup_again then return end
  local l = rules_modifiers[stat_name] or {}
  l[#l + 1] = fn
  rules_modifiers[stat_name] = l
  if E.in_setup then E.setup_added[#E.setup_added + 1] = { fn, "modifier of " .. stat_name } end
  local info = getinfo(fn, "S")
  rules_modifier_at[fn] = info.short_src .. ":" .. info.linedefined
end

local NONE = {}

--- The rules' modifiers of a stat, in the order they run (summon check runs each alone).
function E.rules_modifiers_of(stat_name)
  return rules_modifiers[stat_name] or NONE
end

-- "modifier NAME" for each stat name (a modifier's context), and back: that text -> NAME
local modifier_of_what = {}
local modifier_what = setmetatable({}, { __index = function(t, name)
  local s = "modifier " .. name
  t[name] = s
  modifier_of_what[s] = name
  return s
end })
E.modifier_what = modifier_what

-- The modifier function whose context is at depth i of the context stack, if it is one.
local function modifier_at_depth(i)
  local name = modifier_of_what[E.context[i * 2 - 1]]
  if name == nil then return nil end
  local card = E.context[i * 2]
  if card then return (E.plain_defs or E.defs)[card.def].modifiers[name] end
  return rules_modifier_of[i]
end

--- Fails when a modifier is running: a modifier may only compute (it is asked often, in
--- any order, and from views and bots), so `what` (a choice, the end of the match, an
--- event, an effect deferred, a message) would happen at no moment of the game.
function E.not_in_modifier(what)
  local c = E.context
  for i = E.context_depth(), 1, -1 do
    local name = modifier_of_what[c[i * 2 - 1]]
    if name ~= nil then
      -- (at the script's line that asked, past the engine's own frames: rng.pick, dice.roll...;
      -- a modifier that asked in a tail call left no line: then where it is defined)
      local at, through = E.called_from(1)
      if through or at == "" then
        local fn = modifier_at_depth(i)
        if fn then at = E.defined_at(fn) end
      end
      error(at .. what .. " inside the " .. name .. " modifier: a modifier may only compute " ..
            "the value (no choices, no changes to the match); do this in a hook or a phase instead", 0)
    end
  end
end

-- v, a card's value of stat `name`, through the rules' modifiers of that stat, then the
-- modifier of every card in play (with p, only those whose face p sees: a face-down
-- card's modifier would give it away), then kept within the stat's bounds (game.yaml
-- `stats: {name: {min:, max:}}`), once, after every modifier: so the result does not
-- depend on the order the modifiers run in. Errors name the caller of E.stat (level 3).
local function through_modifiers(c, name, v, p)
  local rm = rules_modifiers[name]
  if rm then
    for i = 1, #rm do
      E.push_context(modifier_what[name], false)
      rules_modifier_of[E.context_depth()] = rm[i]   -- (kept by depth: an error caught by a pcall leaves nothing stale)
      v = rm[i](c, v)
      E.pop_context()
      if type(v) ~= "number" then
        error((rules_modifier_at[rm[i]] or "?") .. ": the rules' modifier of " .. name .. " returned " .. type(v) ..
              ", not a number", 0)   -- (named where the modifier is: the caller of stat is not at fault)
      end
    end
  end
  local defs = E.plain_defs or E.defs
  local ms = E.in_play_with("modifiers", name)
  for i = 1, #ms do
    local m = ms[i]
    if p == nil or E.sees_face(m, p) then   -- (a card p cannot see: its modifier would give it away)
      E.push_context(modifier_what[name], m)
      local fn = defs[m.def].modifiers[name]
      v = fn(m, c, v)
      E.pop_context()
      if type(v) ~= "number" then   -- (named where the modifier is, as the rules' own are)
        local info = getinfo(fn, "S")
        error(info.short_src .. ":" .. info.linedefined .. ": modifier " .. name .. " of " .. m.name .. " returned " ..
              type(v) .. ", not a number", 0)
      end
    end
  end
  local lo, hi = E.game.stat_min[name], E.game.stat_max[name]
  if lo ~= nil and v < lo then v = lo end
  if hi ~= nil and v > hi then v = hi end
  return v
end

local getlocal = debug.getlocal   -- (kept: the host removes debug once the engine files have run)

-- The engine's functions that run a script's function, each with how to find the function
-- it was running from its frame (at stack `level`, as seen by the caller of the finder):
-- E.script_fn_run_at reads them; the flow adds its own (flow.lua).
E.script_runners = {}

--- The function of a script that the engine frame at stack `level` (as seen by the caller
--- of this function) was running when Lua dropped that function's frame for a tail call,
--- if the frame is one of E.script_runners: a hook, rules listener or deferred effect
--- (call_hook's first parameter), a modifier (the innermost context's), a phase; else nil.
function E.script_fn_run_at(level)
  local info = getinfo(level + 1, "f")
  local find = info and E.script_runners[info.func]
  if not find then return nil end
  local fn = find(level + 1)   -- (the finder's level: its caller, this function, adds one)
  if type(fn) == "function" then return fn end
end

E.script_runners[call_hook] = function(level)
  local _, fn = getlocal(level + 1, 1)
  return fn
end
E.script_runners[through_modifiers] = function()
  return modifier_at_depth(E.context_depth())
end

--- Raises "stat: no stat called ..." for a name that is no stat of the game, blaming the
--- caller `level` frames up (as error's level, counted from the function that calls this).
function E.check_stat_name(name, level)
  if not E.game.statset[name] then   -- (a card's other fields are read from cards.def)
    error("stat: no stat called " .. E.show(name) .. E.suggest(name, E.game.stats) ..
          " (the game's stats: " .. table.concat(E.game.stats, ", ") .. ")", level + 1)
  end
end

--- A card's stat: its printed value (or the card's own override in card.base),
--- passed through rules modifiers, then every in-play card's modifier of that stat,
--- then kept within the stat's min and max, if game.yaml gives them.
function E.stat(c, name)
  c = E.card_arg(c, "stat")
  E.check_stat_name(name, 2)
  local defs = E.plain_defs or E.defs
  local v = c.base and c.base[name]
  if v == nil then v = defs[c.def][name] end
  if v == nil then v = E.game.stat_defaults[name] or 0 end
  return through_modifiers(c, name, v)
end

--- The stats of card `id` as seat p may know them, for a screen: {name = value} of
--- the game's stats, each printed value through the rules' modifiers and the modifiers
--- of the cards in play whose face p sees (a face-down card's modifier would give it
--- away), within the stat's min and max. nil for a card whose face p does not see.
--- Each stat runs guarded (budget, no choices); a stat whose modifiers fail is left out,
--- and named with the error in a second table {name = text}.
function E.stats_seen(p, id)
  local c = E.state.cards[id]
  if c == nil or (c.face_down and not E.seen_by(c, p)) or (p ~= nil and not E.sees_face(c, p)) then return nil end
  local out, failed = {}, {}
  for _, name in ipairs(E.game.stats) do
    local ok, v = E.run_guarded(E.stat_seen, p, c, name)
    if ok and type(v) == "number" then out[name] = v
    elseif not ok then failed[name] = v end
  end
  return out, failed
end

--- One stat of card c as seat p may know it (see E.stats_seen), unguarded; nil for a stat
--- the card does not print (nor has of its own) while the modifiers p knows of leave it at
--- the game's default: a modifier that changes it shows it. The caller knows p may see c's face.
function E.stat_seen(p, c, name)
  local v = c.base and c.base[name]
  if v == nil then v = (E.plain_defs or E.defs)[c.def][name] end
  if v ~= nil then return through_modifiers(c, name, v, p) end
  local default = E.game.stat_defaults[name] or 0
  v = through_modifiers(c, name, default, p)
  if v == default then return nil end
  return v
end

-------------------------------------------------------------------------------
-- Name suggestions for errors ("did you mean ...?")
-------------------------------------------------------------------------------
local function distance(a, b)
  local la, lb = #a, #b
  local prev = {}
  for j = 0, lb do prev[j] = j end
  for i = 1, la do
    local cur = { [0] = i }
    for j = 1, lb do
      local cost = a:sub(i, i) == b:sub(j, j) and 0 or 1
      cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
    end
    prev = cur
  end
  return prev[lb]
end

function E.suggest(name, candidates)
  if type(name) ~= "string" then return "" end
  local best, bd = nil, math.huge
  for _, c in ipairs(candidates or {}) do
    local d = distance(name, c)
    if d < bd then best, bd = c, d end
  end
  if best and bd <= math.max(2, #name // 3) and bd < math.max(#name, #best) then return " (did you mean '" .. best .. "'?)" end
  return ""
end
