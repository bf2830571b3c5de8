-- The match coroutine: choose() yields every decision to the host; the engine
-- owns the turn and round loop and calls the game's phase functions.
local E = ...

local co_create, co_resume, co_yield, co_status = coroutine.create, coroutine.resume, coroutine.yield, coroutine.status
local co_isyieldable = coroutine.isyieldable
local co_running = coroutine.running
local load = load
local find = string.find
local sethook, gethook, traceback, gc = debug.sethook, debug.gethook, debug.traceback, collectgarbage
local fn_info = debug.getinfo

E.decisions = 0
E.pending = nil
E.answers = {}       -- keys of the answers given that the host has not taken yet (E.answer, E.answers_from)
E.askers = {}        -- the player who gave each
E.picks = {}         -- the index of each answer among its options (forks replay them)
E.edits = {}         -- a designer's changes from the console, in order: { at = the decisions made
                     -- before it, its compiled code } (forks make them again: E.record_edit)
E.limits = { steps = 2500000, trigger_depth = 40, check_every = 10000, seconds = 10 }

-- The error that ends the match. Compared with rawequal (a script's error value may
-- claim to equal anything through __eq), and sealed so no script can change it.
local GAME_OVER = setmetatable({}, { __tostring = function() return "the game is over" end, __metatable = false })
E.GAME_OVER = GAME_OVER
function E.is_game_over(err) return rawequal(err, GAME_OVER) end

local function fail(msg) error(msg, 3) end

-- Text leaving the match spells NaN one way (portable.lua): so do keys, which saves record.
local portable_text = E.portable_text
local function nan_free(label)
  if find(label, "nan", 1, true) then return portable_text(label) end
  return label
end

--- The keys of a pending choice's options: their labels, a repeated label numbered
--- ("Attack", "Attack #2"). Made when first needed (most choices of a random
--- playout never need more than one).
local function keys_of(pend)
  local keys = pend.keys
  if keys then return keys end
  keys = {}
  local seen = {}
  local last = {}   -- label -> the last number tried for it (a label repeated n times costs O(n))
  for i, label in ipairs(pend.labels) do
    local key = nan_free(label)
    if seen[key] then
      local label, n = key, (last[key] or 1) + 1
      while seen[label .. " #" .. n] do n = n + 1 end
      last[label] = n
      key = label .. " #" .. n
    end
    seen[key] = true
    keys[i] = key
  end
  pend.keys = keys
  return keys
end
E.keys_of = keys_of

--- The key of option i: its label unless another option has the same label or the
--- label looks numbered or holds "nan" (then all the keys are made, as keys_of does).
local function key_of(pend, i)
  local labels = pend.labels
  local label = labels[i]
  if pend.keys == nil and not find(label, " #", 1, true) and not find(label, "nan", 1, true) then
    local unique = true
    for j = 1, #labels do
      if j ~= i and labels[j] == label then unique = false break end
    end
    if unique then return label end
  end
  return keys_of(pend)[i]
end

-- What one choice may offer: enough for any rule, small enough that building, saving
-- and showing the options stays quick (a rule that means to offer more asks in steps).
local MAX_OPTIONS, MAX_LABEL = 5000, 500
E.MAX_OPTIONS, E.MAX_LABEL = MAX_OPTIONS, MAX_LABEL
local utf8_len = utf8.len

--- Checks option i's label (O(1) before utf8.len reads it): UTF-8 text of at most
--- MAX_LABEL characters, in a choice of at most MAX_OPTIONS options.
local function check_label(i, label)
  if i > MAX_OPTIONS then
    error("choose: more than " .. MAX_OPTIONS .. " options; ask in steps (first a group, then one of it)", 3)
  end
  local len = #label <= 4 * MAX_LABEL and utf8_len(label)   -- characters, when few enough to count
  if len == nil then error("choose: option " .. i .. "'s label is not valid UTF-8 text", 3) end
  if not len or len > MAX_LABEL then
    error("choose: option " .. i .. "'s label is longer than " .. MAX_LABEL ..
          " characters, the most a label may have", 3)
  end
end

--- Asks a player to pick one of a list of options and returns the option picked.
--- Options are strings or tables with a `label`; a single option is taken
--- without asking unless `confirm = true`. With `secret = true` only the asked
--- player learns the answer; the others see that a choice was made.
local CHOOSE_KEY_LIST = { "player", "prompt", "options", "secret", "confirm" }
local CHOOSE_KEYS = {}
for _, k in ipairs(CHOOSE_KEY_LIST) do CHOOSE_KEYS[k] = true end

-- What is wrong with a choice's keys ("unknown key 'secert' (did you mean ...)"), or nil. A
-- misspelt key would pass unnoticed: `secert = true` makes the choice public. The first
-- unknown key in sorted order is named, so the message is the same in every run.
local function unknown_choose_key(req)
  local bad = nil
  for k in next, req do
    if not CHOOSE_KEYS[k] then
      local name = tostring(k)
      if bad == nil or name < tostring(bad) then bad = k end
    end
  end
  if bad == nil then return nil end
  return "unknown key " .. E.show(bad) .. E.suggest(bad, CHOOSE_KEY_LIST) ..
         " (the keys are " .. table.concat(CHOOSE_KEY_LIST, ", ") .. ")"
end

function E.choose(req)
  if E.state.over then error(GAME_OVER, 0) end
  E.not_in_modifier("choose")
  if E.match_co == nil or co_running() ~= E.match_co then
    fail("choose: a choice can only be asked while the match runs (not from the console or at load time)")
  end
  if type(req) ~= "table" then fail("choose: expected {player=, prompt=, options=}, got " .. type(req)) end
  local wrong = unknown_choose_key(req)
  if wrong then fail("choose: " .. wrong) end
  local p = req.player
  if E.state.players[p] == nil then
    if p == nil then fail("choose: no player given: player = the number of the player asked") end
    if math.type(p) ~= "integer" then
      fail("choose: player must be a player's number (1 to " .. #E.state.players .. "), not " .. E.show(p))
    end
    fail("choose: no player " .. E.show(p) .. " (players are 1 to " .. #E.state.players .. ")")
  end
  if type(req.options) ~= "table" or #req.options == 0 then fail("choose: options must be a non-empty list") end
  -- the labels are read here, under the budget, and kept: the host reads them, never the
  -- options themselves (a script's metamethod would run outside any budget)
  local opts, labels = {}, {}
  for i, o in ipairs(req.options) do
    if type(o) == "string" then o = { label = o } end
    local label = type(o) == "table" and o.label
    if type(label) ~= "string" then
      fail("choose: option " .. i .. " needs a label")
    end
    -- (short valid labels within the count pass here; check_label names what is wrong)
    if i > MAX_OPTIONS or #label > MAX_LABEL or not utf8_len(label) then check_label(i, label) end
    opts[i], labels[i] = o, label
  end
  if #opts == 1 and not req.confirm then
    if E.met ~= nil then   -- (summon check's fairness audit: a question nobody saw asked)
      E.met_taken(E.met, p, E.clean_text(E.text_at(req.prompt or "Choose", 2)))
    end
    -- said, so that a player sees a decision taken for them (never a secret one's answer)
    if not E.quiet and not req.secret then
      E.say(string.format("%s: %s (the only option for player %d, taken without asking)",
                          E.clean_text(E.text_at(req.prompt or "Choose", 2)), labels[1], p))
    end
    return opts[1]
  end
  if not co_isyieldable() then   -- (Lua would say only "attempt to yield across a C-call boundary")
    fail("choose: a question cannot be asked from inside a function that Lua's library calls back " ..
         "(a __tostring, a string.gsub replacement, a sort's order function): ask before or after that call")
  end
  -- (a scenario's setup adds its listeners before its first question: checked then too)
  if E.in_setup and E.decisions == 0 then E.check_setup_functions() end
  E.pending = { player = p, prompt = E.clean_text(E.text_at(req.prompt or "Choose", 2)), options = opts,
                labels = labels, secret = req.secret == true }
  local i = co_yield("choice")
  local pend = E.pending
  E.pending = nil
  E.decisions = E.decisions + 1
  E.answers[E.decisions] = key_of(pend, i)
  E.askers[E.decisions] = p
  E.picks[E.decisions] = i
  return opts[i]
end

-- A list of winners, checked: players of the match, each once, in order ("players 1 and
-- 3 win" names them so, and a result does not depend on the order they were listed in).
-- Returns nil and what is wrong instead.
local function team(list)
  local st, out, seen = E.state, {}, {}
  local n = 0
  for k in next, list do
    n = n + 1
    if math.type(k) ~= "integer" or k < 1 then n = -1 break end
  end
  if n ~= #list then
    return nil, "end_game: the winners must be a list of players, {1, 3} say, not " .. E.clean_text(E.show(list))
  end
  for _, p in ipairs(list) do
    if math.type(p) ~= "integer" or st.players[p] == nil then
      return nil, "end_game: each winner must be a player from 1 to " .. #st.players .. ", not " ..
                  E.clean_text(E.show(p))
    end
    if seen[p] then return nil, "end_game: player " .. p .. " is named twice among the winners" end
    seen[p], out[#out + 1] = true, p
  end
  table.sort(out)
  return out
end

local function team_result(list)
  if #list == 0 then return "nobody wins" end
  if #list == #E.state.players and #list > 1 then return "everyone wins" end
  if #list == 1 then return "player " .. list[1] .. " wins" end
  local names = {}
  for i, p in ipairs(list) do names[i] = tostring(p) end
  return "players " .. table.concat(names, ", ", 1, #names - 1) .. " and " .. names[#names] .. " win"
end

-- The result a reason says: as it is when it names each winner as a player ("Player 2
-- holds the hill"), else after who won ("player 2 wins (highest score)"); a game nobody
-- won, by its reason alone.
local function named_winners(reason, winners, who)
  if reason == nil then return who end
  -- (the number after "player", the numbers after "players": "players 1, 3 and 4 hold the
  -- hill"; "player 1 and 2 others" names one)
  local named = {}
  for word, list in string.gmatch(string.lower(reason), "(players?)%s+(%d[%d%s,and]*)") do
    for n in string.gmatch(list, "%d+") do
      named[tonumber(n)] = true
      if word == "player" then break end
    end
  end
  for _, p in ipairs(winners) do
    if not named[p] then return who .. " (" .. reason .. ")" end
  end
  return reason
end

--- Ends the match; winner may be nil for a draw, a player of the match, or a list of
--- them (a team's win; {}: nobody's).
function E.end_game(winner, reason)
  E.not_in_modifier("end_game")
  local st = E.state
  if st.over then error(GAME_OVER, 0) end
  local winners
  if type(winner) == "table" then   -- (a game option's list is a read-only view of one)
    local wrong
    winners, wrong = team(E.behind_view(winner) or winner)
    if wrong then fail(wrong) end
  elseif winner ~= nil and (math.type(winner) ~= "integer" or st.players[winner] == nil) then
    fail("end_game: the winner must be a player from 1 to " .. #st.players .. ", a list of players, or nil " ..
         "for a draw, not " .. E.clean_text(E.text_at(winner, 2)))
  end
  if reason ~= nil and type(reason) ~= "string" then
    fail("end_game: the reason must be text, not a " .. type(reason))
  end
  st.over = true
  if winners then
    -- (a team: `winners` lists it; `winner` is its one player, when it has one)
    st.winners, st.winner = winners, #winners == 1 and winners[1] or nil
    st.result = named_winners(reason, winners, team_result(winners))
  else
    st.winner = winner
    st.result = winner and named_winners(reason, { winner }, "player " .. winner .. " wins") or reason or "draw"
  end
  E.say("Game over: " .. st.result)
  error(GAME_OVER, 0)
end

function E.win(p, reason)
  E.not_in_modifier("win")
  if math.type(p) ~= "integer" or E.state.players[p] == nil then
    fail("win: the winner must be a player from 1 to " .. #E.state.players .. ", not " ..
         E.clean_text(E.text_at(p, 2)) .. (type(p) == "table" and " (a team wins with end_game({1, 3}))" or ""))
  end
  if reason ~= nil and type(reason) ~= "string" then
    fail("win: the reason must be text, not a " .. type(reason))
  end
  E.end_game(p, reason)
end

local function rules_fn(name)
  local fn = E.rules_env[name]
  if type(fn) ~= "function" then error("the rules define no function " .. tostring(name), 0) end
  return fn
end

local take_checkpoint

-- What an offer may hold: plain data (tables, text, numbers, booleans), since a fork
-- copies it. Cards of the state and tables with a metatable (read-only views) are
-- taken as they are, and so is what lies more than 8 tables deep.
local mtype = math.type
local function is_plain(v, depth)
  local cards = E.state.cards
  for _, x in next, v do
    local tx = type(x)
    if tx == "table" then
      if getmetatable(x) == nil and depth < 8 and not (mtype(x.id) == "integer" and cards[x.id] == x)
         and not is_plain(x, depth + 1) then
        return false
      end
    elseif tx == "function" or tx == "thread" or tx == "userdata" then
      return false
    end
  end
  return true
end

-- Where the first value that is not plain data is (is_plain said there is one): the
-- least path in text order, so the report is the same whatever order next() takes.
local function not_plain(v, path, depth)
  local tv = type(v)
  if tv == "function" or tv == "thread" or tv == "userdata" then return path .. " (a " .. tv .. ")" end
  if tv ~= "table" or getmetatable(v) ~= nil or depth > 8 then return nil end
  if mtype(v.id) == "integer" and E.state.cards[v.id] == v then return nil end
  local first
  for k, x in next, v do
    local bad = not_plain(x, path .. (type(k) == "string" and ("." .. k) or ("[" .. tostring(k) .. "]")), depth + 1)
    if bad and (first == nil or bad < first) then first = bad end
  end
  return first
end

-- One step of a phase with an `offer`: the offer (a request for choose, or nil when
-- there is nothing to ask and the phase ends) is made, the checkpoint taken with it,
-- the player asked, and `run` called with the option picked. req: the offer already
-- made, when a fork resumes from its checkpoint. Returns run's result, or nil.
-- Stops the match with what is wrong with a phase's offer, at the offer function's
-- own file and line (where its author looks).
local function offer_error(ph, offer, what)
  local info = fn_info(offer, "S")
  local src = info and info.source or ""
  local where = (info and (info.linedefined or 0) > 0 and src:sub(1, 1) == "@")
                and (src:sub(2) .. ":" .. info.linedefined .. ": ") or ""   -- (the whole path: short_src cuts it)
  error(where .. "the offer of phase " .. ph.id .. " (" .. ph.offer .. ") " .. what, 0)
end

local function offer_step(ph, offer, fn, arg, at, player, calls, req)
  if req == nil then
    req = offer(arg)
    if req == nil or req == false then return nil end
    if type(req) ~= "table" or type(req.options) ~= "table" then
      offer_error(ph, offer, "must return {player=, prompt=, options=} or nil, not " ..
                  (type(req) == "table" and "a table without a list of options" or type(req)))
    end
    if #req.options == 0 then
      offer_error(ph, offer, "offered no options (return nil when there is nothing to ask: the phase ends)")
    end
    local wrong = unknown_choose_key(req)   -- (choose would name this file: the offer is the modder's)
    if wrong then offer_error(ph, offer, "returned an " .. wrong) end
    -- (checked where forks copy it: in a match that keeps checkpoints, as a search's does,
    -- and in `summon check`; checking every offer of every match cost about 7% of play)
    if E.keep_checkpoints then
      if not is_plain(req, 0) then
        offer_error(ph, offer, "must be plain data, which forks copy: " .. not_plain(req, "offer", 0) .. " is not")
      end
      take_checkpoint(at, player, calls, req)
    end
  end
  return fn(arg, E.choose(req))
end

-- A phase runs its `run` function once; a phase with `repeat: true` runs it again and
-- again while it returns a true value, with a checkpoint before each call after the
-- first (at, player: the checkpoint's place, see take_checkpoint). resumed: the calls
-- already made, when a fork resumes from such a checkpoint (the phase has begun).
-- A phase with an `offer` asks its player first (offer_step) and calls `run` with the
-- option picked; its checkpoints are taken with the offer made, so a fork resumes at
-- the question itself (req: that offer, copied) without making it again.
-- (summon check's fairness audit notes each point a phase's function returns at: E.met)
local function met_point()
  local met = E.met
  if met ~= nil then E.met_point(met) end
end

local function run_phase(ph, arg, at, player, resumed, req)
  local st = E.state
  st.phase = ph.id
  if not resumed then E.emit("phase_start", { phase = ph.id, player = st.active }) end
  E.push_context("phase " .. ph.id)
  local fn = rules_fn(ph.run)
  if ph.offer then
    local offer, calls = rules_fn(ph.offer), resumed or 0
    repeat
      local again = offer_step(ph, offer, fn, arg, at, player, calls, req)
      met_point()
      calls, req = calls + 1, nil
    until not (again and ph["repeat"])
  elseif ph["repeat"] then
    local calls = resumed or 0
    while true do
      if calls > 0 and calls ~= resumed and E.keep_checkpoints then take_checkpoint(at, player, calls) end
      calls = calls + 1
      local again = fn(arg)
      met_point()
      if not again then break end
    end
  else
    fn(arg)
    met_point()
  end
  E.pop_context()
  E.emit("phase_end", { phase = ph.id, player = st.active })
end

-- (an error raised through a phase function's tail call is said where the function is:
-- run_phase ran its `run`, offer_step its `offer`, whose frame Lua dropped)
local getlocal = debug.getlocal
E.script_runners[run_phase] = function(level)
  local _, ph = getlocal(level + 1, 1)
  return type(ph) == "table" and E.rules_env[ph.run] or nil
end
E.script_runners[offer_step] = function(level)
  local _, offer = getlocal(level + 1, 2)
  return offer
end

-- Checkpoints: when a match keeps them (E.keep_checkpoints), the state is copied at
-- the top of every turn (or round) and before each phase, where nothing of the match
-- lives on the Lua stack. A fork starts from the latest one and replays the answers
-- given since.
E.keep_checkpoints = false
E.checkpoint = nil
E.forced_since = false   -- the host forced random results since the checkpoint

-- at: nil for the state before the setup, "top" for the top of a turn (round), or
-- the index of the phase about to run (or running, with calls); player: whose turn
-- (turns), else nil; calls: in a repeating phase or one with an offer, the calls of its
-- function already made (nil before the phase).
-- req: the offer about to be asked (a phase with an `offer`), kept with the state and
-- copied with it (cp.root = { state, offer }: the offer's cards are the state's).
function take_checkpoint(at, player, calls, req)
  local state, root = E.state, nil
  if req ~= nil then
    root = E.deep_copy({ state, req })
    state = root[1]
  else
    state = E.deep_copy(state)
  end
  E.checkpoint = { at = at, player = player, calls = calls, state = state, root = root, decision = E.decisions,
                   forced = E.copy_list(E.forced), start_phase = E.start_phase, chance_n = #E.chance_log }
  E.forced_since = false
end

-- The checkpoint before the setup keeps no copy: a new state from the seed and seats
-- is the same (E.new_state), and every match has this checkpoint.
local function start_checkpoint()
  local seats = {}
  for i, pl in ipairs(E.state.players) do seats[i] = { set = pl.set, name = pl.name } end
  E.checkpoint = { at = nil, seed = E.state.seed, seats = seats, decision = 0,
                   forced = E.copy_list(E.forced), start_phase = E.start_phase, chance_n = 0 }
  E.forced_since = false
end

--- Runs the match: the setup, then turns (or rounds) until it ends. resume: a
--- checkpoint to go on from (its state is in place): the setup is done, and the
--- turn (round) it was taken in has begun unless it was taken at its top.
function E.run_flow(resume, req)
  local st, flow = E.state, E.game.flow
  local phases = flow.phases
  if resume == nil or resume.at == nil then
    local again = resume ~= nil   -- (a fork from the match's start: its setup runs again)
    resume = nil
    E.push_context("setup")
    rules_fn(flow.setup)()
    E.pop_context()
    if E.scenario_fn then
      E.push_context("scenario setup")
      -- (a scenario's setup may add listeners and rules modifiers, as the rules do as they
      -- load: E.in_setup, the match's own, read only from its own run; a fork runs the setup
      -- again, and the listeners its first run added are in place then: E.setup_again)
      E.in_setup, E.setup_again, E.setup_added = true, again, {}
      E.scenario_fn()
      E.in_setup, E.setup_again = false, false
      if not again then E.check_setup_functions() end
      E.setup_added = {}
      E.pop_context()
    end
  end
  local rounds = flow.kind == "rounds"
  while not st.over do
    local p, first, calls = resume and resume.player, 1, resume and resume.calls
    if resume and resume.at ~= "top" then
      first = resume.at          -- inside the turn: its start is behind us
    else
      if E.keep_checkpoints and not resume then take_checkpoint("top") end
      if rounds then
        st.round = st.round + 1
        E.emit("round_start", { round = st.round })
      else
        p = st.active
        st.turn = st.turn + 1
        E.emit("turn_start", { player = p })
      end
    end
    resume = nil
    local arg = rounds and st.round or p
    for i = first, #phases do
      local ph = phases[i]
      if calls then              -- inside a phase: its first calls (and req's offer) are behind us
        run_phase(ph, arg, i, p, calls, req)
        calls, req = nil, nil
      elseif E.start_phase == nil or E.start_phase == ph.id then
        E.start_phase = nil
        if E.keep_checkpoints then take_checkpoint(i, p) end
        run_phase(ph, arg, i, p)
      end
    end
    st.phase = nil
    if rounds then
      E.emit("round_end", { round = st.round })
      if flow.after_round then rules_fn(flow.after_round)(st.round) end
    else
      E.emit("turn_end", { player = p })
      if flow.next_player then
        local fn = rules_fn(flow.next_player)
        local q = fn(p)
        if math.type(q) ~= "integer" or st.players[q] == nil then
          local info = fn_info(fn, "S")
          error((info.source:gsub("^[@=]", "")) .. ":" .. info.linedefined .. ": " .. flow.next_player .. " (the flow's next_player) " ..
                "must return the player whose turn is next, from 1 to " .. #st.players .. ", not " .. E.show(q), 0)
        end
        st.active = q
      else
        st.active = E.players.next(p)
      end
    end
  end
end

-------------------------------------------------------------------------------
-- The driver the host calls: start, then step with each answer.
-------------------------------------------------------------------------------
local co
local tripped = nil

-- The budget, in steps (engine/steps.py): every compiled chunk counts its steps down on
-- E.steps.n and calls E.steps.out (settle, below) when that passes zero. The engine
-- grants the counter a slice of the budget at a time, so it only hears of the count
-- every few thousand steps; `left` is what is not granted yet. A run is stopped at
-- exactly its budget's step plus one, on every machine.
local steps = E.steps
local left, granted = 0, 0
local fresh = true                                  -- first check since the budget was refilled?
local metered = setmetatable({}, { __mode = "k" })  -- the threads that run under the budget
local UNMETERED_SLICE = 1 << 30

local function grant(n)
  local g = E.limits.check_every
  if gc("count") > E.roomy_kb then g = 100 end      -- slow single instructions: check often
  if g > n then g = n end
  left, granted = n - g, g
  steps.n = g
end

local function refill()
  tripped, fresh = nil, true
  grant(E.limits.steps > 0 and E.limits.steps or UNMETERED_SLICE)
end

local function hard_hook()
  error(tripped, 0)
end

local function context_chain()
  local parts = E.context_lines()
  if #parts == 0 then return "" end
  return "\n  in " .. table.concat(parts, "\n  <- ")
end

-- Stops the running thread for good: every further instruction fails, so a
-- script's pcall cannot swallow the error.
local function trip(message)
  tripped = message .. context_chain()
  sethook(hard_hook, "", 1)
  error(tripped, 0)
end

-- Instruction-count samples by source line, when E.profile is a table (benchmarks).
local getinfo = debug.getinfo

local function sample()
  local prof = E.profile
  for level = 2, 12 do
    local info = getinfo(level, "Sl")
    if not info then break end
    local k = info.short_src .. ":" .. (level == 2 and (info.currentline or 0) or ("fn" .. info.linedefined))
    prof[k] = (prof[k] or 0) + (level == 2 and 1 or 0)
    prof["~" .. k] = (prof["~" .. k] or 0) + 1
  end
end

--- Samples the running match from now on (and every match started or forked after it)
--- into tbl, as E.profile: bench/profile.py.
function E.start_profile(tbl)
  E.profile = tbl
  if E.match_co then sethook(E.match_co, sample, "", 1000) end
end

--- The file and line of the innermost running frame, from `level` out, that is not the
--- engine's own (engine files are named engine/lua/...); nil when there is none.
function E.script_line(level)
  for l = level + 1, 40 do
    local info = getinfo(l, "Sl")
    if not info then break end
    local src = info.source or ""
    if info.what ~= "C" and (info.currentline or 0) > 0 and not src:find("^@?engine/lua/") then
      return (src:gsub("^[@=]", "")), info.currentline
    end
  end
end

-- Where a script was running when the budget ran out, as " at file:line".
local function running_at()
  local file, line = E.script_line(3)
  return file and (" at " .. file .. ":" .. line) or ""
end

-- Called when the counter passes zero (by a step, or by E.charge with charged true).
-- In a thread under the budget: past the budget, stop the run; else check what steps
-- cannot see (E.watch: Ctrl-C, processor time) and grant the next slice. Anywhere else
-- (the host reading state) steps count for nothing. Engine code: no step of its own
-- before the counter is granted again.
local function settle(charged)
  if not metered[co_running()] or E.limits.steps <= 0 then
    steps.n = UNMETERED_SLICE
    return
  end
  local rest = left + steps.n
  if rest < 0 then
    steps.n = UNMETERED_SLICE   -- (the hard hook stops the thread from here on)
    if charged then
      trip("script ran too long: more than " .. E.limits.steps ..
           " steps' worth of work before the next decision (library calls on large strings or tables?)" ..
           running_at())
    end
    trip("script ran too long: more than " .. E.limits.steps ..
         " steps (loop turns and function calls) before the next decision (an endless loop?)" .. running_at())
  end
  grant(rest)
  local stop, more = E.watch(fresh)
  fresh = false
  if stop then trip(stop .. running_at() .. more) end
end
steps.out = settle

--- Charges the budget for n instructions' worth of work done in C (library calls,
--- libs.lua), at 20 to a step (about the instructions a step stands for in games'
--- scripts). Outside a budgeted thread (the host reading state) it stops nothing.
function E.charge(n)
  steps.n = steps.n - (n + 19) // 20
  if steps.n < 0 then settle(true) end
end

--- Loads bytecode the host compiled (luac.compile_lua) in env, as a function called
--- like the text's chunk: the step counter goes in as the chunk's first argument.
--- Returns the function, or nil and the error.
function E.load_compiled(bc, chunkname, env)
  local fn, err = load(bc, "@" .. chunkname, "b", env)
  if not fn then return nil, err end
  return function(...) return fn(steps, ...) end
end

-- A thread that runs under the budget; with E.profile, also sampled by a count hook.
local function metered_thread(fn)
  local th = co_create(fn)
  metered[th] = true
  if E.profile then sethook(th, sample, "", 1000) end
  return th
end

--- An error message that names a place in the engine's own code (a script gave an engine
--- function a bad argument, mostly), said at `at`, the script's "file:line: " that called
--- it, with the engine's place after it; nil for any other message, or no `at`. With
--- `through`, the line's call ran a function of the script's (a filter, a hook) that
--- reached the engine by a tail call, which leaves no line of its own. With `ran` too,
--- that function is known (a hook, a rules listener, a deferred effect, a modifier)
--- and `ran_at` is the engine's line that ran it: the message is said where the function
--- is defined, and the engine's place is left out when it is only that line (an error
--- raised at its caller's level, which the tail call took away); `passed`: the failing
--- `return f(...)` may be in a function it gave the engine (E.called_from).
function E.blamed_on(err, at, through, ran, ran_at, passed)
  local engine_at, rest = string.match(err, "^(engine/lua/[%w_]+%.lua:%d+): (.*)$")
  if engine_at and (at ~= "" or ran) and (string.find(rest, "^stack overflow") or string.find(rest, "^C stack overflow")) then
    -- (no bad argument: the engine was only where the stack ran out; the context says what looped)
    return (ran and E.defined_at(ran) or at) .. "stack overflow: functions called within each other without end"
  end
  if engine_at and ran then
    return E.defined_at(ran) .. rest .. E.tail_called_here((engine_at ~= ran_at and engine_at) or nil, passed)
  end
  if engine_at and at ~= "" then
    return at .. rest .. " (inside the engine, at " .. engine_at .. (through and
      ", reached from a function this line's call ran (its `return f(...)` left no line): check what it gives the engine)"
      or ": check what this line gives it)")
  end
end

--- The words after an error said where a function of a script is defined, because the
--- call that failed was its `return f(...)` (or, `passed`, one in a function it gave the
--- engine, a filter, that the engine ran), with the engine's place `engine_at` if any.
function E.tail_called_here(engine_at, passed)
  return " (from a `return f(...)` in the function defined here" ..
    (passed and " or in a function it gave the engine (a filter)" or "") ..
    (engine_at and ", inside the engine at " .. engine_at or "") ..
    ": such a call leaves no line of its own; check what the function's `return` calls give)"
end

-- Where a script called into the engine, for an error the engine's own code raised: "file:line: "
-- of the first script frame from stack level `from` up, past the engine's frames and C's
-- (levels as seen by the caller of this function, which adds its own), and whether an
-- engine frame on the way was reached by a tail call with more engine code above it: then
-- Lua dropped the frame that made the call, a function of the script's that the engine ran
-- (a hook's or a filter's `return board.within(x)`), and the line found is the one whose
-- call ran it (or the rules that emitted the event). When the engine frame above the one
-- dropped is one that runs a script's function (E.script_fn_run_at: a hook, a modifier),
-- also that function, "file:line" of the engine's line that ran it, and whether a frame
-- was dropped below that one too (the function gave the engine a filter that failed so).
function E.called_from(from)
  local dropped, through, ran, ran_at, passed = false, false, nil, nil, false
  for level = from + 1, 60 do
    local info = getinfo(level, "Slt")
    if not info then break end
    local script = info.what ~= "C" and not find(info.source or "", "^@?engine/lua/")
    if script and (info.currentline or 0) > 0 then
      return info.short_src .. ":" .. info.currentline .. ": ", through, ran, ran_at, passed
    end
    if dropped and not ran then
      ran = E.script_fn_run_at(level)
      if ran then ran_at, passed = info.short_src .. ":" .. info.currentline, through end
    end
    through = through or (dropped and not script)
    dropped = info.istailcall
  end
  return "", through, ran, ran_at, passed
end

E.script_runners[E.run_flow] = function()   -- (the game's setup: its context says so)
  local depth = E.context_depth()
  if E.context[depth * 2 - 1] == "setup" then return E.rules_env[E.game.flow.setup] end
end

local IPAIRS_STEP = ipairs({})   -- the function ipairs gives a for loop
E.IPAIRS_STEP = IPAIRS_STEP

--- The message of an error raised by ipairs's step (its value was no table), in words.
function E.ipairs_message(msg)
  return (string.gsub(msg, "^attempt to index an? (%a+) value.*$",
                      "ipairs needs a table (a list) to go through, got %1"))
end

--- A message with no place, raised by a C function a script called (the iterator of its
--- `for _, x in ipairs(t.missing)`: "attempt to index a nil value"), said at the script's
--- line; `level` is the raising function's, as seen by the caller of this function. Any
--- other message is left as it is: a place given already, a script's error(msg, 0) (no
--- place asked for), or a C function reached by a tail call (its caller's line is gone).
function E.c_placed(msg, level)
  if E.has_place(msg) then return msg end
  local raiser = getinfo(level + 1, "Sft")
  if not raiser or raiser.what ~= "C" or raiser.func == error or raiser.istailcall then return msg end
  local info = getinfo(level + 2, "Sl")
  if not info or info.what == "C" or find(info.source or "", "^@?engine/lua/") or (info.currentline or 0) <= 0 then
    return msg
  end
  if raiser.func == IPAIRS_STEP then msg = E.ipairs_message(msg) end   -- (ipairs takes anything; its steps fail)
  return info.short_src .. ":" .. info.currentline .. ": " .. msg
end

-- An error value as it is, unless it is neither text nor a table with a message: then its
-- text, with where it was raised (a script's `return error(x)`, a tail call, leaves no frame
-- of its own: the engine's frames are passed over). And an error in the engine's own code
-- under a script's call, said at the script's line. As a message handler itself, or
-- called by one (nested).
local function placed(err, nested)
  if type(err) == "string" then
    if find(err, "^engine/lua/") then return E.blamed_on(err, E.called_from(nested and 3 or 2)) or err end
    local msg = E.c_placed(err, nested and 3 or 2)   -- (not a tail call: it counts this frame)
    return msg
  end
  if rawequal(err, GAME_OVER) or (type(err) == "table" and type(rawget(err, "message")) == "string") then
    return err
  end
  return (E.called_from(nested and 3 or 2)) .. E.error_text(err)
end

-- The first frame of Lua written in a YAML file (a card's script) up the stack of an error
-- placed elsewhere (in a rules file the script called, or the engine): the line its author
-- looks at, which the rules' own line does not name (an action the rules run is no hook).
local function yaml_caller(msg)
  if string.find(msg, "\n  called from ", 1, true) then return "" end   -- (said by an inner handler)
  local dropped = false
  for level = 3, 200 do
    local info = getinfo(level, "Slt")
    if not info then return "" end
    local src, line, how = info.source or "", info.currentline or 0, ""
    if dropped then   -- (a card's hook whose `return f(...)` led here left no line: where it is defined)
      local ran = E.script_fn_run_at(level)
      local at = ran and getinfo(ran, "S")
      if at and string.find(at.source or "", "%.ya?ml$") then
        src, line, how = at.source, at.linedefined, " (the function defined there, by its `return f(...)`)"
      end
    end
    if line > 0 and string.find(src, "%.ya?ml$") then
      local file = string.gsub(src, "^[@=]", "")
      local placed_at = string.match(msg, "^(.-):%d+: ")   -- (Lua cuts a long name to "..." and its end)
      placed_at = placed_at and string.gsub(placed_at, "^%.%.%.", "")
      if placed_at and string.sub(file, -#placed_at) == placed_at then return "" end
      return "\n  called from " .. file .. ":" .. line .. how
    end
    dropped = info.istailcall
  end
  return ""
end

-- A guarded run's message handler: placed as the match's own errors are, with the card's
-- line that led there and what was running (a modifier, say, in a stat a bot's evaluation
-- asked for).
local function guarded_error(err)
  local msg = placed(err, true)   -- (not a tail call: placed counts this frame)
  if type(msg) ~= "string" then return msg end
  return msg .. yaml_caller(msg) .. context_chain()
end

--- Runs fn(...) in its own thread under the budget (for script code the host runs
--- outside the match: loading chunks, `summon eval`).
--- Returns true, results... or false, message.
function E.run_guarded(fn, ...)
  local args = table.pack(...)
  local th = metered_thread(function()
    local res = table.pack(xpcall(fn, guarded_error, table.unpack(args, 1, args.n)))
    if not res[1] then error(res[2], 0) end
    return table.unpack(res, 2, res.n)
  end)
  refill()
  local saved = E.set_context_aside()
  local res = table.pack(co_resume(th))
  E.restore_context(saved)
  if not res[1] then return false, tripped or E.error_text(res[2]) end
  if co_status(th) ~= "dead" then return false, "a choice cannot be asked for here" end
  return true, table.unpack(res, 2, res.n)
end

--- The text of an error value (scripts may raise any value).
function E.error_text(err)
  if type(err) == "string" then return E.clean_text(err) end
  if rawequal(err, GAME_OVER) then   -- (win or end_game outside the match's own run)
    return "win() and end_game() end a match only from its rules and cards as it plays, not from here "
           .. "(summon eval, the lua console, a bot's evaluation)"
  end
  if type(err) == "table" and type(rawget(err, "message")) == "string" then
    return E.clean_text(rawget(err, "message"))
  end
  return "a script raised an error value of type " .. type(err) ..
         " (raise errors with a message: error(\"what went wrong\"))"
end

--- A message handler (xpcall) that places errors as the match's own does.
function E.place_error(err)
  local msg = placed(err, true)   -- (not a tail call: placed counts this frame)
  if type(msg) == "string" then msg = msg .. yaml_caller(msg) end   -- (before the stack unwinds)
  return msg
end

local function on_error(err)
  if rawequal(err, GAME_OVER) then return GAME_OVER end
  if tripped then return { message = tripped } end
  local msg = E.error_text(placed(err, true))
  return { message = msg .. yaml_caller(msg) .. context_chain(), traceback = traceback(nil, 2) }
end

local function start_co(main)
  co = metered_thread(function()
    local ok, err = xpcall(main, on_error)
    if ok or rawequal(err, GAME_OVER) then return "over" end
    -- Lua calls no message handler for a memory error: its bare message comes back, and
    -- the context (which hook, card, phase) is still where the error left it
    if type(err) ~= "table" then return "error", E.error_text(err) .. context_chain() end
    return "error", err.message
  end)
  E.match_co = co
end
E.start_co = start_co   -- (and E.fork's, engine/lua/forking.lua)

--- Starts the match; returns like step().
function E.start(main)
  start_checkpoint()      -- the state before the setup: every fork can start from here
  start_co(main or E.run_flow)
  return E.step(nil)
end

E.match_part(function(m)
  m.decisions, m.pending, m.answers, m.askers, m.picks = E.decisions, E.pending, E.answers, E.askers, E.picks
  m.co, m.match_co, m.start_phase, m.edits = co, E.match_co, E.start_phase, E.edits
  m.in_setup, m.setup_again, m.setup_added = E.in_setup, E.setup_again, E.setup_added
  m.keep_checkpoints, m.checkpoint, m.forced_since = E.keep_checkpoints, E.checkpoint, E.forced_since
end, function(m)
  E.decisions, E.pending, E.answers, E.askers, E.picks = m.decisions, m.pending, m.answers, m.askers, m.picks
  co, E.match_co, E.start_phase, E.edits = m.co, m.match_co, m.start_phase, m.edits
  E.in_setup, E.setup_again, E.setup_added = m.in_setup or false, m.setup_again or false, m.setup_added or {}
  E.keep_checkpoints, E.checkpoint, E.forced_since = m.keep_checkpoints, m.checkpoint, m.forced_since
end)

--- The running match as a new table of its own (see E.match_part).
function E.current_match() return E.save_match({}) end

--- The values of a match that has not begun (see E.match_part): no state yet, no
--- answers, nothing said, no coroutine.
local function blank_match()
  return {
    state = nil, forced = {}, messages = {}, quiet = true, context = {}, ctx_n = 0, chance_log = {}, depth = 0,
    chain = {}, deferred = {}, version = 0, decisions = 0, pending = nil, answers = {}, askers = {}, picks = {},
    co = nil, match_co = nil, start_phase = nil, keep_checkpoints = false, checkpoint = nil, forced_since = false,
    edits = {},
  }
end

--- Makes a new match of the same game the running one: its state from seed and seats
--- (as E.new_state), not yet started (E.start starts it). The caller keeps the match
--- that was running (E.current_match) to go back to it. Sound only for a game whose
--- scripts keep all match data in `state`, as forks need too.
E.blank_match = blank_match   -- (E.fork's too)

function E.new_match(seed, seats)
  local m = blank_match()
  m.state = E.new_state(seed, seats)
  E.load_match(m)
end

--- Resumes the match with an answer (an option's index). Returns
---   "choice", player, prompt, number of options, secret
---   "over"
---   "error", message
function E.step(answer)
  if co == nil or co_status(co) == "dead" then return "error", "the match is not running" end
  refill()
  local ok, status, msg = co_resume(co, answer)
  if not ok then
    return "error", tripped or tostring(status)
  end
  if status == "choice" then
    local pend = E.pending
    return "choice", pend.player, pend.prompt, #pend.options, pend.secret
  end
  return status, msg
end

--- step() for the host: the same results after the label of the answer just given
--- (one call per decision instead of two).
function E.answer(i)
  local status, a, b, c, d = E.step(i)
  local n = E.decisions
  local key = E.answers[n]
  E.answers[n], E.askers[n] = nil, nil   -- the host keeps them (a label kept here too keeps its string alive)
  return key, status, a, b, c, d
end

--- Plays on with uniformly random answers from a generator seeded with `seed`, in
--- Lua with no host in between, until the match ends, stops, or `max` more
--- decisions were made. Returns the number of decisions made, then like step().
function E.rollout(seed, max)
  local pick = E.new_generator(seed)
  if not E.pending then return 0, "error", "nothing is asked" end
  local made, status, a, b, c, d = 0, "choice", nil, nil, nil, nil
  while made < max and status == "choice" do
    status, a, b, c, d = E.step(pick(#E.pending.options))
    made = made + 1
  end
  return made, status, a, b, c, d
end

--- Answers and askers from decision `first` on, as two lists (after a rollout), which
--- the host keeps from then on: they are taken out of the match's lists.
function E.answers_from(first)
  local keys, who = {}, {}
  for n = first, E.decisions do
    keys[#keys + 1] = E.answers[n]
    who[#who + 1] = E.askers[n]
    E.answers[n], E.askers[n] = nil, nil   -- the host keeps them from now on
  end
  return keys, who
end

--- Index of the pending option with this key, or nil.
function E.key_index(key)
  local pend = E.pending
  if not pend then return nil end
  for i, k in ipairs(keys_of(pend)) do
    if k == key then return i end
  end
  return nil
end

--- The `warn` text of each pending option ("" for none): the host asks its player to
--- confirm such an answer (attacking one's own card, say).
function E.pending_warnings()
  local out = {}
  if not E.pending then return out end
  for i, o in ipairs(E.pending.options) do
    local warn = rawget(o, "warn")   -- (the host's read: no script metamethod may run)
    out[i] = type(warn) == "string" and E.clean_text(warn) or ""
  end
  return out
end

function E.pending_keys()
  if not E.pending then return {} end
  return E.copy_list(keys_of(E.pending))
end
