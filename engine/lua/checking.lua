-- What `summon check` alone asks of a runtime: loaded when it first does
-- (engine/runtime.py ON_DEMAND), as most runtimes never need it.
local E = ...

-- A problem check_set returned, as {set id, keys or false, message}: a text, or
-- {"text", at = {key, ...}} (list positions counted from 1, as Lua does).
local function one_line(text)   -- (check says each problem on one line)
  return (string.gsub(E.clean_text(text), "%s*\n%s*", " "))
end

local function set_problem(id, p)
  if type(p) == "string" then return { id, false, one_line(p) } end
  if type(p) == "table" and type(p[1]) == "string" then
    local at, text = p.at, one_line(p[1])
    if at == nil then return { id, false, text } end
    if type(at) == "table" then
      local keys, n = {}, 0
      for _ in next, at do n = n + 1 end   -- (a hole in the list, or a named key: no place of the file)
      for i = 1, n do
        local k = at[i]
        if not ((math.type(k) == "integer" and k >= 1) or (type(k) == "string" and utf8.len(k))) then
          at = nil
          break
        end
        keys[i] = k
      end
      if at then return { id, keys, text } end
    end
    return { id, false, text .. " (and its at = ... is no list of keys: texts, and list positions from 1)" }
  end
  return { id, false, "check_set must return nil or a list of problems, each a text or {\"text\", at = " ..
                      "{key, ...}} (keys: texts, and list positions from 1), not " .. E.show(p) }
end

--- For `summon check`: what the rules' check_set(set) finds wrong in each card set (a
--- game may define one, for what JSON Schema cannot say: two cards starting on one
--- space, a layout without its leader). Returns a list of {set id, keys or false,
--- message}; a check_set that fails gives its error as the message, keys true.
function E.check_sets()
  local fn = rawget(E.rules_env, "check_set")
  local out = {}
  if fn == nil then return out end
  local ids = {}
  for id in next, E.sets do ids[#ids + 1] = id end
  table.sort(ids)
  if type(fn) ~= "function" then
    out[1] = { ids[1] or "", true, "the rules' check_set must be a function check_set(set), not " .. type(fn) }
    return out
  end
  local defined = E.defined_at(fn)   -- (for an error that names no place)
  for _, id in ipairs(ids) do
    -- (what it returns is read under the budget too: a script's table may have a metatable)
    local ok, res = E.run_guarded(function(set)
      local res, found = fn(set), {}
      if res == nil then return found end
      if type(res) ~= "table" or (type(res[1]) == "string" and res.at ~= nil) then res = { res } end
      for _, p in ipairs(res) do found[#found + 1] = set_problem(id, p) end
      return found
    end, E.sets[id])
    if not ok then
      out[#out + 1] = { id, true, res, defined }
    else
      table.move(res, 1, #res, #out + 1, out)
    end
  end
  return out
end


-- A modifier run alone on every card of the state, as stat() would run it, each card under
-- the step budget of its own (an error on one card, or an endless loop, is said by the
-- checks that play; the others are still asked).
local function run_on_every_card(fn, m, name, ids)
  local defs = E.plain_defs or E.defs
  local what = E.modifier_what[name]
  for _, id in ipairs(ids) do
    local c = E.state.cards[id]
    if c ~= nil then
      local v = c.base and c.base[name]
      if v == nil then v = defs[c.def][name] end
      if v == nil then v = E.game.stat_defaults[name] or 0 end
      E.run_guarded(function()
        E.push_context(what, m)
        if m then fn(m, c, v) else fn(c, v) end
      end)
    end
  end
end

--- For `summon check`: the first modifier that changes the match's state when it runs. A
--- modifier may only compute: it runs whenever a stat is read (the rules, screens, each
--- seat's view, the bots), so a change it made would happen at no moment of the game and
--- differ with who looked. Each modifier in play (stat by stat in the game's order, the
--- rules' first, then the cards' in play order) is run alone on every card of the state,
--- and the state compared before and after. Returns nil, or "file:line: " where the
--- modifier is defined, what it is, and the state's JSON before and after it ran (after:
--- nil when the state can no longer be written, and then the error).
function E.modifier_that_writes()
  local before = E.snapshot_json()
  local ids = {}
  for id in next, E.state.cards do ids[#ids + 1] = id end
  table.sort(ids)
  local defs = E.plain_defs or E.defs
  for _, name in ipairs(E.game.stats) do
    local runs = {}
    for _, fn in ipairs(E.rules_modifiers_of(name)) do
      runs[#runs + 1] = { fn, false, "the rules' modifier of " .. name }
    end
    for _, m in ipairs(E.in_play_with("modifiers", name)) do
      runs[#runs + 1] = { defs[m.def].modifiers[name], m, E.modifier_what[name] .. " of " .. E.describe(m) }
    end
    for _, r in ipairs(runs) do
      run_on_every_card(r[1], r[2], name, ids)
      local ok, after = pcall(E.snapshot_json)
      if not ok or after ~= before then
        return { E.defined_at(r[1]), r[3], before, ok and after or nil, not ok and E.error_text(after) or nil }
      end
    end
  end
end

-- (debug's functions, as events.lua kept them)
local getupvalue, upvalueid, getinfo = E.debug.getupvalue, E.debug.upvalueid, E.debug.getinfo

--- For `summon check`: the locals of the rules files that the rules' global functions keep
--- (their upvalues but _ENV), each once, as a list of {name, value, "file:line" of the first
--- function using it, that function's name}, functions taken by name in order.
function E.rules_locals()
  local names = {}
  for k, v in next, E.rules_env do
    if type(k) == "string" and type(v) == "function" then names[#names + 1] = k end
  end
  table.sort(names)
  local out, seen = {}, {}
  for _, k in ipairs(names) do
    local fn = E.rules_env[k]
    local info = getinfo(fn, "S")
    if info.what == "Lua" and not string.find(info.source, "^@?engine/") then
      for i = 1, 255 do
        local up, v = getupvalue(fn, i)
        if up == nil then break end
        local id = upvalueid(fn, i)
        if up ~= "_ENV" and not seen[id] then
          seen[id] = true
          out[#out + 1] = { up, v, info.short_src .. ":" .. info.linedefined, k }
        end
      end
    end
  end
  return out
end

-------------------------------------------------------------------------------
-- A card kept whole in the state, which the host's views refuse (state.lua, refuse_kept):
-- loaded with the first view or console the host asks for, as most runtimes (random
-- bots, searches) never do.
-------------------------------------------------------------------------------

-- The state's own parts of ids and numbers, which hold no card; the rest (vars, players,
-- counters, a rules' key) is looked through for one (E.card_kept).
local HOLD_NO_CARD = { cards = true, zones = true, spaces = true, rng = true, mixed = true }
-- A card's own fields of ids, numbers and text; the rules' fields on it are looked through.
local CARD_OWN = { id = true, def = true, name = true, owner = true, controller = true, zone = true,
                   space = true, host = true, under = true, face_down = true, seen_by = true, seen_open = true,
                   down_ref = true, mark = true, first_owner = true, tokens = true }

local function key_text(k)
  return type(k) == "string" and k:match("^[%a_][%w_]*$") and ("." .. k) or ("[" .. E.show(k) .. "]")
end

--- Where the state holds a card itself outside state.cards ("state.vars.last.a", and the
--- card's id), or nil: the first such place by its path's text, so the same on every run.
--- A view holds such a part whole (and a card that shows, its fields), so the card would
--- be in the view of every seat, face and all. (At most 20,000 tables looked at, 16 deep:
--- past that, nil whatever was found, as the order tables are met in is no one order.)
function E.card_kept(st)
  st = st or E.state
  local cards, left = st.cards, 20000
  local best, best_id
  local function walk(t, path, depth)
    for k, x in next, t do
      if type(x) == "table" then
        left = left - 1
        if left < 0 then return end
        local here = path .. key_text(k)
        local id = rawget(x, "id")
        if math.type(id) == "integer" and cards[id] == x then
          if best == nil or here < best then best, best_id = here, id end
        elseif depth < 16 then
          walk(x, here, depth + 1)
        end
      end
    end
  end
  for top, x in next, st do
    if type(x) == "table" and not HOLD_NO_CARD[top] then walk(x, "state" .. key_text(top), 0) end
  end
  for i = 1, #cards do   -- (a rules' field on a card: c.paired = d)
    for k, x in next, cards[i] do
      if type(x) == "table" and not CARD_OWN[k] then walk({ [k] = x }, "state.cards[" .. i .. "]", 0) end
    end
  end
  if left < 0 then return nil end
  return best, best_id
end

-- The fairness audit (engine/fairness.py) follows one random game and, beside it, worlds
-- dealt again from one seat's view, answering each as the game was answered. E.met, set
-- for one answer, gathers what the answer did that a screen shows besides the view and
-- the lines said: what it showed whom (a card revealed, players.learned's words), and
-- its trace: each question the engine answered itself (its one
-- option, taken without asking) and each return of a phase's function, with every
-- audited seat's view then (met.want: at that place of the trace only). A question asked in one world where the other passed the same
-- sight without asking it is seen on every screen: it tells what made the difference.

--- Notes what the answer showed `seats` (nil: every seat): a card, as its id and name
--- (a reveal), or the words players.learned gave.
function E.met_shown(met, seats, data, kind)
  local c = type(data) == "table" and data.card or nil
  local what = c and { c.id, c.name or E.show(c.def) } or { 0, kind }
  what.seats = seats
  met.shown[#met.shown + 1] = what
end

--- Notes a counter's change (counters.add, set, spend): whose, which, its value now, and
--- the script line that made it (the innermost frame that is not the engine's).
function E.met_wrote(met, p, name, value)
  local file, line = E.script_line(3)   -- (past this function and the counters call)
  met.wrote[#met.wrote + 1] = { owner = p and tostring(p) or "shared", name = name, value = value,
                                source = file, line = line }
end

local function met_views(met)
  local views = {}
  if met.want ~= nil and #met.trace + 1 ~= met.want then return views end   -- (only where compared)
  for _, s in ipairs(met.seats) do
    local ok, v = pcall(E.view_json, s)
    views[s] = ok and v or false
  end
  return views
end

--- Notes a question of player p taken without asking, with each audited seat's view then.
function E.met_taken(met, p, prompt)
  met.trace[#met.trace + 1] = { player = p, prompt = prompt, views = met_views(met) }
end

--- Notes a phase's function returning, with each audited seat's view then.
function E.met_point(met)
  met.trace[#met.trace + 1] = { views = met_views(met) }
end

-- An option's shape: its fields but its label and warning, a card by its id, so that a
-- world's question built from other cards offers "the same" answer where it plays the
-- same card (by id) to the same place, whatever the card is there.
local function shape_of(v, depth)
  if type(v) == "table" then
    local id = rawget(v, "id")
    if math.type(id) == "integer" and rawequal(E.state.cards[id], v) then return "#" .. id end
    if depth > 3 then return "{...}" end
    local keys = {}
    for k in next, v do
      if (k ~= "label" and k ~= "warn") or depth > 0 then keys[#keys + 1] = k end
    end
    table.sort(keys, function(a, b) return E.show(a) < E.show(b) end)
    local parts = {}
    for i, k in ipairs(keys) do parts[i] = E.show(k) .. "=" .. shape_of(rawget(v, k), depth + 1) end
    return "{" .. table.concat(parts, ",") .. "}"
  elseif type(v) == "string" then
    return string.format("%q", v)
  end
  return type(v) == "function" and "function" or tostring(v)
end

--- The shapes of the pending question's options, in order (under the budget: the rules'
--- tables may have metamethods), or nil and the error.
function E.option_shapes()
  local ok, out = E.run_guarded(function()
    local shapes = {}
    for i, o in ipairs(E.pending.options) do shapes[i] = shape_of(o, 0) end
    return shapes
  end)
  if not ok then return nil, out end
  return out
end

--- The match's generator (four words), and a world's set to it: the audit's worlds draw
--- what the game drew, so what differs between them is what the cards dealt again change.
function E.rng_words()
  local r = E.state.rng
  return { r[1], r[2], r[3], r[4] }
end

function E.set_rng_words(w)
  E.state.rng = { w[1], w[2], w[3], w[4] }
end

--- The views of `seats`, as JSON, in order.
function E.views_json(seats)
  local out = {}
  for i, p in ipairs(seats) do out[i] = E.view_json(p) end
  return out
end
