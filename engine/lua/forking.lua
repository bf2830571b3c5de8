-- Forks: a copy of a running match in the same runtime (E.fork), and the compiled
-- copier of a checkpoint's state that searches fork from again and again (E.copier).
-- Loaded when a match of the runtime is first forked (engine/runtime.py ON_DEMAND): a
-- search does at once, but a match played by people or random bots never does, and
-- each runtime holds its own compiled copy of every engine file it loads.
local E = ...

local fmt, concat, mtype = string.format, table.concat, math.type
local getmt, script_mts = E.raw_getmetatable, E.script_mts
local co_status = coroutine.status

-- A copier compiled for one table that never changes (a checkpoint's state): Lua text
-- of one table constructor holding the whole tree, compiled once, so that each copy
-- is made by the VM's constructors (tables made at their final size) instead of a loop
-- of next() and stores. Copying a state of some 200 tables is about five times faster so;
-- writing and compiling the text costs about as much as eight copies by E.deep_copy.
local load, huge, mininteger = E.load_text, math.huge, math.mininteger

local function literal(v, kept)
  local tv = type(v)
  if tv == "string" then return fmt("%q", v) end
  if tv == "number" then
    if mtype(v) == "integer" then
      -- (the minimum integer has no decimal literal; its hexadecimal one wraps to it)
      return v == mininteger and "0x8000000000000000" or fmt("%d", v)
    end
    if v ~= v then return nil end      -- NaN has no literal: copy the slow way
    if v == huge then return "1e999" elseif v == -huge then return "-1e999" end
    return fmt("%a", v)                 -- hexadecimal: the exact bits
  end
  if tv == "boolean" then return v and "true" or "false" end
  kept[#kept + 1] = v                   -- views, functions: shared, as E.deep_copy does
  return "K[" .. #kept .. "]"
end

-- Tables a copier must write once and name (T[n]): those met more than once under the
-- root (a card in the state and in an option of the pending choice). Returns the set
-- (table -> true), or nil when the tree has a cycle or a table as a key (no text of
-- constructors can make those).
local function shared_tables(root)
  local refs, open = {}, {}
  local function walk(t)
    open[t] = true
    for k, v in next, t do
      if type(k) == "table" and (getmt(k) == nil or script_mts[getmt(k)]) then return false end
      if type(v) == "table" and script_mts[getmt(v)] then return false end   -- (a script's object)
      if type(v) == "table" and getmt(v) == nil then
        if open[v] then return false end
        local n = refs[v]
        refs[v] = (n or 0) + 1
        if n == nil and not walk(v) then return false end
      end
    end
    open[t] = nil
    return true
  end
  if not walk(root) then return nil end
  local shared = {}
  for t, n in next, refs do
    if n > 1 then shared[t] = true end
  end
  return shared
end

-- Appends t's constructor to out; false if t holds what text cannot (NaN). A table of
-- `shared` is written once, as a statement `T[n] = {...}` in pre (its own shared
-- tables before it), and named T[n] wherever it is met.
local function constructor(t, out, kept, shared, names, pre)
  local function value(v)
    if type(v) == "table" and getmt(v) == nil then
      if not shared[v] then return constructor(v, out, kept, shared, names, pre) end
      local name = names[v]
      if name == nil then
        local own = {}
        if not constructor(v, own, kept, shared, names, pre) then return false end
        names.n = names.n + 1
        name = "T[" .. names.n .. "]"
        names[v] = name
        pre[#pre + 1] = name .. "=" .. concat(own) .. " "
      end
      out[#out + 1] = name
      return true
    end
    local s = literal(v, kept)
    if not s then return false end
    out[#out + 1] = s
    return true
  end
  out[#out + 1] = "{"
  local n = 0
  while t[n + 1] ~= nil do n = n + 1 end
  for i = 1, n do
    if not value(t[i]) then return false end
    out[#out + 1] = ","
  end
  for k, v in next, t do
    if not (mtype(k) == "integer" and k >= 1 and k <= n) then
      local ks = literal(k, kept)
      if not ks then return false end
      out[#out + 1] = "[" .. ks .. "]="
      if not value(v) then return false end
      out[#out + 1] = ","
    end
  end
  out[#out + 1] = "}"
  return true
end

--- A function that returns a new copy of t each time it is called, like E.deep_copy(t)
--- (tables with a metatable are shared, not copied; a table met twice is copied once,
--- so both places hold the same copy), or nil when t cannot be written as Lua text (it
--- holds NaN, a cycle or a table as a key) or the text does not compile (too deep).
--- Only for a t that never changes afterwards: the copies are of t as it is now.
function E.copier(t)
  local shared = shared_tables(t)
  if shared == nil then return nil end
  local body, kept, pre = {}, {}, {}
  if not constructor(t, body, kept, shared, { n = 0 }, pre) then return nil end
  local head = #pre > 0 and "local T = {} " or ""
  local text = "local K = ... return function() " .. head .. concat(pre) .. "return " .. concat(body) .. " end"
  local chunk = load(text, "=(state copy)", "t", {})
  if not chunk then return nil end
  local ok, fn = pcall(chunk, kept)
  if not ok then return nil end
  return fn
end

-- A copy of a checkpoint's state. A checkpoint forked from again and again (the root
-- of a search) gets a compiled copier (E.copier) at its eighth fork: compiling costs
-- about eight plain copies, and each later copy is about five times cheaper.
local COPIER_AT = 8
-- Returns the copy of the state, and of the offer kept with it (or nil).
local function state_copy(cp)
  local copier = cp.copier
  local root = cp.root or cp.state
  if copier == nil then
    local n = (cp.forks or 0) + 1
    cp.forks = n
    if n < COPIER_AT then copier = false
    else
      copier = E.copier(root) or false
      cp.copier = copier
    end
  end
  local copy = copier and copier() or E.deep_copy(root)
  if cp.root then return copy[1], copy[2] end
  return copy, nil
end

-- A fork's picks: a list of its own that reads the match's list for the decisions
-- before its checkpoint (picks are never changed once made, and the fork writes each
-- decision after the checkpoint itself as it replays them), so a fork copies none of
-- them. A fork of a fork reads through both lists; past HISTORY_DEPTH lists the history
-- is copied instead (Lua follows at most 2000 __index links). (A fork's answers and
-- askers start empty: the host keeps the history of those.)
local HISTORY_DEPTH = 8
local function history_of(list, upto)
  local mt = getmetatable(list)
  local depth = mt and mt.depth or 0
  if depth >= HISTORY_DEPTH then
    local own = {}
    for n = 1, upto do own[n] = list[n] end
    return own
  end
  local own = {}
  return setmetatable(own, { __index = list, depth = depth + 1 })
end

-- A fork's replay (E.fork): makes the designer's changes edits[k], edits[k + 1], ...
-- that were made at this decision; returns the next k, and the fork's status and its
-- first value (an error naming the change that failed, or as given).
local function edits_at(edits, k, status, a)
  while edits[k] and edits[k].at == E.decisions do
    local ok, err = E.run_guarded(E.edit_fn(edits[k]))
    if not ok then
      return k + 1, "error", "the console change made at decision " .. (edits[k].at + 1) ..
                             " failed when a copy of the match made it again: " .. tostring(err)
    end
    k = k + 1
  end
  return k, status, a
end

-- The serial of a match's last console change (0: none): samples of one position and
-- changes are kept apart by it (E.record_edit).
local function last_edit(src)
  local e = src.edits[#src.edits]
  return e and e.serial or 0
end

--- Makes a copy of the running match that shares no table with it, and leaves the
--- copy running (the caller keeps the original's table from E.current_match to go
--- back to it). The copy starts from the latest checkpoint (a copy of the state kept
--- at the start of the phase, or of the match) and replays the answers given since, in
--- Lua; it says nothing unless quiet is false, and keeps no checkpoints unless keep is true.
--- seat, seed: deal again what that seat cannot see, from seed (E.redeal), sharing the
--- work with other forks of the same position (E.redeal_fork); honest: replay the other
--- seats' secret answers as given (else drawn again, below). src: the running match's
--- values when the caller has them already (E.current_match), else they are read here.
--- Returns "choice"/"over"/"error" like step() (the copy's position).
function E.fork(keep, quiet, seat, seed, honest, src)
  src = src or E.save_match({})
  local cp = src.checkpoint
  if src.forced_since then
    error("fork: random results were forced since this turn began (fork before forcing them)", 0)
  end
  if src.co == nil or co_status(src.co) == "dead" then error("fork: the match is not running", 0) end
  E.collect_for_forks()
  local m = E.blank_match()
  -- notes are never changed once a later decision has begun: all but the last are shared
  local n = cp.chance_n
  table.move(src.chance_log, 1, n - 1, 1, m.chance_log)
  if n > 0 then m.chance_log[n] = E.copy(src.chance_log[n]) end
  local req
  if cp.state then m.state, req = state_copy(cp) end
  m.forced, m.decisions, m.start_phase = E.copy_list(cp.forced), cp.decision, cp.start_phase
  local d = cp.decision
  m.picks = history_of(src.picks, d)
  if src.edits[1] then m.edits = E.copy_list(src.edits) end
  m.keep_checkpoints, m.checkpoint = keep == true, cp
  if cp.state == nil then   -- the start: a new state, as the match had before its setup
    E.new_state(cp.seed, E.deep_copy(cp.seats))
    m.state = E.state
  end
  E.load_match(m)
  E.start_co(function() return E.run_flow(cp, req) end)
  local status, a, b, c, d = E.step(nil)
  local answers, askers = E.answers, E.askers
  -- the designer's changes made since the checkpoint, each where it was made: with its
  -- decision asked, before the answer (the question was built before the change, as it was)
  local edits, k = src.edits, 1
  while edits[k] and edits[k].at < cp.decision do k = k + 1 end
  if edits[k] and status == "choice" then k, status, a = edits_at(edits, k, status, a) end
  -- A sample does not replay another seat's secret answers as given: the rules may keep
  -- one in a local of the running phase (a bid, say), where no redeal reaches it, and the
  -- sample would then know it. Each is drawn at random instead (from the sample's seed);
  -- the sample stands only if the seat sees in it just what it sees in the match (the
  -- same view, the same question): otherwise the answers had consequences the seat saw,
  -- and the fork is made again with the answers as given, whose hidden part the redeal
  -- deals again.
  local other = seat ~= nil and not honest and E.new_generator(seed ~ 0x5ec2e7) or nil
  local drawn = false
  for n = cp.decision + 1, src.decisions do
    if status ~= "choice" then break end
    local pick = src.picks[n]
    if other and d and a ~= seat then pick, drawn = other(c), true end
    status, a, b, c, d = E.step(pick)
    answers[n], askers[n] = nil, nil   -- (the host has them: the match's own)
    if edits[k] and status == "choice" then k, status, a = edits_at(edits, k, status, a) end
  end
  if drawn then
    local same = status == "choice" and E.decisions == src.decisions and a == src.pending.player
        and c == #src.pending.options
    if same then   -- the same question: every option's label too (one may name the drawn answer)
      local mine, real = E.pending.labels, src.pending.labels
      for i = 1, c do
        if mine[i] ~= real[i] then same = false break end
      end
    end
    if same then   -- (the match's view, made once a position: samples of it share it)
      local views = cp.views
      if views == nil then views = {}; cp.views = views end
      local vkey = seat .. ":" .. src.decisions .. ":" .. last_edit(src)
      local real = views[vkey]
      if real == nil or real.pending ~= src.pending then
        local mine = E.save_match({})
        E.load_match(src)
        real = { pending = src.pending, json = E.view_json(seat) }
        E.load_match(mine)
        views[vkey] = real
      end
      same = E.view_json(seat) == real.json
    end
    if not same then return E.fork(keep, quiet, seat, seed, true, src) end
  end
  if status == "choice" and E.decisions ~= src.decisions then
    status, a = "error", "the copy went another way than the match (a script keeps match data outside state?)"
  end
  if seat ~= nil and status == "choice" then
    local key = { seat, last_edit(src) }   -- (a console change at the same position is another one)
    for n = cp.decision + 1, src.decisions do key[#key + 1] = E.picks[n] end
    E.redeal_fork(cp, table.concat(key, ","), seat, seed)
  end
  E.quiet = quiet ~= false
  return status, a, b, c, d
end
