-- The engine's core: match state, the seeded generator, canonical serialisation.
-- Loaded first, with the runtime's full globals; every later engine file receives E.
local E = ...

E.state = nil          -- the match state: plain data only
E.defs = {}            -- card definitions by id (read-only to scripts)
E.game = nil           -- the game definition from YAML

local fmt, concat, sort = string.format, table.concat, table.sort
local mtype = math.type

-------------------------------------------------------------------------------
-- Seeded generator: xoshiro256** on Lua 5.4 integers (wrapping arithmetic),
-- seeded with splitmix64, so the same seed gives the same stream everywhere.
-------------------------------------------------------------------------------
local function rotl(x, k) return (x << k) | (x >> (64 - k)) end

local function splitmix(x)
  x = x + 0x9E3779B97F4A7C15
  local z = x
  z = (z ~ (z >> 30)) * 0xBF58476D1CE4E5B9
  z = (z ~ (z >> 27)) * 0x94D049BB133111EB
  return x, z ~ (z >> 31)
end

--- Whether an error message starts with a place (`file:line: ...`). One of ours naming a
--- player's zone (`cards.to_zone: position 9 is not in hand:1: ...`) does not: a place
--- comes first, with no ": " before its line's number.
function E.has_place(msg)
  local head = string.sub(msg, 1, 300)
  local at = string.find(head, ":%d+: ")
  if not at then return false end
  local file = string.sub(head, 1, at - 1)
  return not string.find(file, ": ", 1, true) and not string.find(file, "\n", 1, true)
end

--- A stand-in for a card id that says nothing of the card: views show it for a face
--- the seat cannot see (ids follow creation order, so a real id could name the card).
--- It depends on the seed, which no seat sees, and uses no number from the generator.
function E.hidden_id(id)
  local _, z = splitmix(E.state.seed ~ (id * 0x632BE59BD9B4E019))
  return string.format("?%012x", z & 0xffffffffffff)
end

--- A number for a face-down card's stand-in (`?N` in the views), one no face-down card
--- has: each card turned face down is counted (state.turned_down), and the count is shown
--- through a permutation keyed by the seed, which no seat sees, so the numbers do not
--- tell the order cards were turned face down in (an army turned over piece by piece);
--- four digits, more only past 3,000 face-down cards.
function E.new_stand_in()
  local st = E.state
  st.turned_down = (st.turned_down or 0) + 1
  local used, n = {}, 0
  for _, c in ipairs(st.cards) do
    if c.down_ref then used[c.down_ref], n = true, n + 1 end
  end
  -- (four digits while fewer than 3,000 cards are face down: not by the count of all cards,
  -- which holds those of secret zones, whose number no seat may know)
  local span = 9000
  while n * 3 > span do span = span * 10 end
  local salt = 0
  while true do
    local _, z = splitmix(st.seed ~ (st.turned_down * 0x2545F4914F6CDD1D) ~ (salt * 0x5851F42D4C957F2D))
    local ref = span // 9 + (z & 0x7fffffffffffffff) % span
    if not used[ref] then return ref end
    salt = salt + 1
  end
end

-- One step of xoshiro256** on the four words in s: returns the next 64-bit output.
local function step(s)
  local result = rotl(s[2] * 5, 7) * 9
  local t = s[2] << 17
  s[3] = s[3] ~ s[1]
  s[4] = s[4] ~ s[2]
  s[2] = s[2] ~ s[3]
  s[1] = s[1] ~ s[4]
  s[3] = s[3] ~ t
  s[4] = rotl(s[4], 45)
  return result
end

--- A fresh xoshiro256** generator of its own (not the match's): next(n) gives 1..n.
--- For drivers that answer choices without the host (E.rollout).
function E.new_generator(seed)
  local s, x = {}, seed
  for i = 1, 4 do x, s[i] = splitmix(x) end
  return function(n) return 1 + (step(s) >> 1) % n end
end

function E.rng_seed(seed)
  local s, x = {}, seed
  for i = 1, 4 do x, s[i] = splitmix(x) end
  E.state.rng = s
end

local function next64() return step(E.state.rng) end

-- Forced results (scenario tests) are taken before the generator is used.
E.forced = {}

--- Every draw from the generator is noted: fair undo cannot go back past it.
function E.random_int(lo, hi)
  local n = hi - lo + 1
  if n <= 0 then error("random_int: empty range " .. lo .. ".." .. hi, 2) end
  -- (a stat a screen or a bot asks for would draw from the match's generator)
  E.not_in_modifier("a random draw")
  E.note("random number")
  local f = E.forced
  if #f > 0 then
    local v = table.remove(f, 1)
    if v < lo or v > hi then
      error(string.format("a forced result (rolls: in a scenario) of %d cannot come from this draw of %d to %d",
                          v, lo, hi), 0)
    end
    return v
  end
  return lo + (next64() >> 1) % n
end

function E.shuffle(list)
  for i = #list, 2, -1 do
    local j = E.random_int(1, i)
    list[i], list[j] = list[j], list[i]
  end
  return list
end

-------------------------------------------------------------------------------
-- Canonical JSON: sorted keys, sequences as arrays, integers as integers.
-- Script data reaches the host only through here (snapshots, hashes, views,
-- eval results), on the host's time, outside any step budget: so the
-- encoder bounds its own work. A table met twice is encoded twice (a few shared
-- tables nested can stand for 2^40 values), so it counts the values it writes
-- and the bytes of text, and gives up with a clear error past either limit.
-------------------------------------------------------------------------------
E.MAX_JSON_VALUES = 1000000
E.MAX_JSON_BYTES = 16 * 1024 * 1024
local utf8_len, sub, gsub, find, rep = utf8.len, string.sub, string.gsub, string.find, string.rep

-- Every byte that JSON escapes, and its escape.
local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
for b = 0, 31 do
  local c = string.char(b)
  escapes[c] = escapes[c] or fmt("\\u%04x", b)
end
escapes["\127"] = "\\u007f"

--- Text safe to hand to the host: NaN spelt one way (E.portable_text), and invalid
--- UTF-8 bytes become "?". The work is done by C: utf8.len from each bad byte to the
--- next, and bytes that can start no character are skipped in runs.
function E.clean_text(s)
  if find(s, "nan", 1, true) then s = E.portable_text(s) end   -- (string.format spells NAN already)
  local n, bad = utf8_len(s)
  if n then return s end
  local out, i, len = {}, 1, #s
  while true do
    out[#out + 1] = sub(s, i, bad - 1)
    i = find(s, "[\0-\127\194-\244]", bad + 1) or len + 1   -- the next byte that may start one
    out[#out + 1] = rep("?", i - bad)
    if i > len then break end
    n, bad = utf8_len(s, i)
    if n then
      out[#out + 1] = sub(s, i)
      break
    end
  end
  return concat(out)
end

-- What one encoding may still use, and the quoted text of the strings seen in it.
local values_left, bytes_left, cleaned = 0, 0, nil

local function too_large(why)
  error("cannot encode the data: " .. why, 0)
end

local function quote(s)
  if #s + 2 > bytes_left then
    too_large(fmt("its text would be longer than %d MB", E.MAX_JSON_BYTES // (1024 * 1024)))
  end
  -- a string met again (every card's field names, a long text shared) costs nothing more
  local done = cleaned[s]
  if done then return done end
  done = '"' .. gsub(E.clean_text(s), '[%c"\\]', escapes) .. '"'
  cleaned[s] = done
  return done
end

-- Serialising reads tables raw (no metamethods), so script data cannot run code here.
local rawlen = rawlen

local function count(n)
  values_left = values_left - n
  if values_left < 0 then
    too_large(fmt("it holds more than %d values (a table referenced from many places counts each time)",
                  E.MAX_JSON_VALUES))
  end
end

local function keystr(k)
  local tk = type(k)
  if tk == "string" then return k end
  if tk == "number" then
    return math.type(k) == "integer" and fmt("%d", k) or fmt("%.17g", k)
  end
  if tk == "boolean" then return k and "<true>" or "<false>" end
  -- a card (a table with a whole id) by its id, as pairs orders them
  if tk == "table" and math.type(rawget(k, "id")) == "integer" then return fmt("<card %d>", rawget(k, "id")) end
  return "<" .. tk .. ">"
end

-- The text being written: its pieces and how many (set by encode for each value encoded).
local buf, pos = nil, 0

local function too_long()
  too_large(fmt("its text would be longer than %d MB", E.MAX_JSON_BYTES // (1024 * 1024)))
end

-- A value that is not a table, as JSON text.
local function scalar(v, tv)
  if tv == "string" then return quote(v)
  elseif tv == "number" then
    if mtype(v) == "integer" then return fmt("%d", v)
    elseif v ~= v or v == math.huge or v == -math.huge then return "null"
    elseif v == math.floor(v) and math.abs(v) < 2^53 then return fmt("%d", math.floor(v))
    else return fmt("%.17g", v) end
  elseif tv == "boolean" then return v and "true" or "false"
  elseif tv == "nil" then return "null"
  elseif tv == "function" then return '"<function>"'
  end
  return quote("<" .. tv .. ">")
end

local encode_table

-- Writes one value (a table at the given depth).
local function write(x, depth)
  local tx = type(x)
  if tx == "table" then
    encode_table(x, depth)
  else
    local text = scalar(x, tx)
    bytes_left = bytes_left - #text
    if bytes_left < 0 then too_long() end
    pos = pos + 1; buf[pos] = text
  end
end

-- Writes a table. Every value written counts one against the values left, and every
-- piece of text its length against the bytes left; a sequence's entries are counted
-- once more when it is checked for holes (so a table holding itself runs out).
function encode_table(v, depth)
  if depth > 64 then too_large("it is nested more than 64 deep (a table inside itself?)") end
  local len = rawlen(v)
  local is_seq
  if len == 0 then
    is_seq = next(v) == nil
  else
    local seen = 0
    for _ in next, v do seen = seen + 1 end
    count(seen)
    is_seq = seen == len
  end
  if is_seq then
    if len == 0 then
      pos = pos + 1; buf[pos] = "[]"; bytes_left = bytes_left - 2
      return
    end
    values_left = values_left - len
    bytes_left = bytes_left - len - 1
    if values_left < 0 then count(0) end
    if bytes_left < 0 then too_long() end
    pos = pos + 1; buf[pos] = "["
    for i = 1, len do
      if i > 1 then pos = pos + 1; buf[pos] = "," end
      write(rawget(v, i), depth + 1)
    end
    pos = pos + 1; buf[pos] = "]"
    return
  end
  -- An object: keys sorted as text. Keys that are all strings are read straight from the
  -- table; other keys go through their text, and two keys with one text (1.5 and "1.5",
  -- two tables) stop the encoding: which one would win depends on the order `next` gives,
  -- which is not the same in every run.
  local keys, kn, lookup = {}, 0, nil
  for k in next, v do
    if type(k) ~= "string" then lookup = true end
    kn = kn + 1
    keys[kn] = k
  end
  if lookup then
    lookup, kn = {}, 0
    for k, val in next, v do
      local ks = keystr(k)
      if lookup[ks] ~= nil then
        error("cannot encode a table with two keys that read the same as text (" .. quote(ks) ..
              "): a number and the same number as text, two tables with the same id, or two tables or "
              .. "functions with none", 0)
      end
      kn = kn + 1; keys[kn] = ks
      lookup[ks] = val
    end
    for i = #keys, kn + 1, -1 do keys[i] = nil end
  end
  sort(keys)
  values_left = values_left - kn
  bytes_left = bytes_left - 2 * kn - 1
  if values_left < 0 then count(0) end
  if bytes_left < 0 then too_long() end
  pos = pos + 1; buf[pos] = "{"
  for i = 1, kn do
    local k = keys[i]
    local qk = quote(k)
    bytes_left = bytes_left - #qk
    if i > 1 then pos = pos + 1; buf[pos] = "," end
    pos = pos + 1; buf[pos] = qk
    pos = pos + 1; buf[pos] = ":"
    if lookup then write(lookup[k], depth + 1) else write(rawget(v, k), depth + 1) end
  end
  pos = pos + 1; buf[pos] = "}"
end

-- Writes v at the end of out.
local function encode(v, out)
  buf, pos = out, #out
  count(1)
  write(v, 0)
  buf = nil
end

-- Runs fn(...) with fresh limits for one encoding; the cache goes with them.
local function encoding(fn, ...)
  values_left, bytes_left, cleaned = E.MAX_JSON_VALUES, E.MAX_JSON_BYTES, {}
  local ok, res = pcall(fn, ...)
  cleaned = nil
  if not ok then error(res, 0) end
  return res
end

-- Where in v an encoding ran past its limits, for the message: the keys down to the
-- first table nested more than 64 deep, or else down the tables that hold most of the
-- values. Keys are visited sorted as text (the same path in every run), and the walk
-- gives up after a bounded number of tables (a table shared many times over).
local function sorted_tables(t)
  local keys = {}
  for k, val in next, t do
    if type(val) == "table" then keys[#keys + 1] = keystr(k) end
  end
  sort(keys)
  local lookup = {}
  for k, val in next, t do
    if type(val) == "table" then lookup[keystr(k)] = val end
  end
  return keys, lookup
end

local function culprit(v, by_text)
  local path, visits = {}, 0
  local function dive(x, depth)
    if depth > 64 then return true end
    visits = visits + 1
    if visits > 100000 then return false end
    local keys, lookup = sorted_tables(x)
    for i = 1, #keys do
      path[depth + 1] = keys[i]
      if dive(lookup[keys[i]], depth + 1) then return true end
    end
    path[depth + 1] = nil
    return false
  end
  if type(v) ~= "table" then return nil end
  if not by_text and dive(v, 0) then
    local shown = table.move(path, 1, math.min(#path, 8), 1, {})
    return concat(shown, ".") .. (#path > 8 and ".…" or "")
  end
  -- Too many values (or too much text, by_text): follow the table that holds the most
  -- of them, while it holds at least half of what it and its siblings hold. Each value
  -- counts as often as it is reached, as for the encoder. Tables are counted up to a
  -- cap, and those that reach it again with a larger one, so a huge state is named in
  -- a moment.
  -- A count the cap stopped depends on the order `next` gave (which differs between runs
  -- for text keys), so it is not used: one table past the cap is the one to follow, and
  -- two or more leave no way to choose (the same message in every run).
  local function size(x, cap)   -- its count (nil when the cap stopped it)
    local n, seen, stack = 0, 0, { x }
    while #stack > 0 do
      local t = stack[#stack]
      stack[#stack] = nil
      for k, val in next, t do
        seen = seen + 1
        local tv = type(val)
        if by_text then
          n = n + (type(k) == "string" and #k or 1) + (tv == "string" and #val or 1)
        else
          n = n + 1
        end
        if tv == "table" then stack[#stack + 1] = val end
        if seen >= cap then return nil end
      end
    end
    return n
  end
  path = {}
  local at = v
  while #path < 8 do
    local keys, lookup = sorted_tables(at)
    local sizes, measure, cap, capped = {}, keys, 1000, {}
    while true do
      capped = {}
      for _, k in ipairs(measure) do
        sizes[k] = size(lookup[k], cap)
        if sizes[k] == nil then capped[#capped + 1] = k end
      end
      if #capped < 2 or cap * 8 * #capped > 1100000 then break end
      measure, cap = capped, cap * 8
    end
    local best, most, all = nil, 0, 0
    if #capped == 1 then
      best = capped[1]   -- past the cap: more than all the others together, or near enough
    elseif #capped == 0 then
      for _, k in ipairs(keys) do
        all = all + sizes[k]
        if sizes[k] > most then best, most = k, sizes[k] end
      end
      if best ~= nil and most * 2 < all then best = nil end
    end
    if best == nil then break end
    path[#path + 1] = best
    at = lookup[best]
  end
  return #path > 0 and concat(path, ".") or nil
end

local function to_json(v)
  local out = {}
  encode(v, out)
  return concat(out)
end

--- Canonical JSON of a value, within the limits above (an error past them, which names
--- where in the value it went wrong when `name` says what the value is: "state").
function E.to_json(v, name)
  if name == nil then return encoding(to_json, v) end
  local ok, res = pcall(encoding, to_json, v)
  if ok then return res end
  local where = type(res) == "string" and find(res, "^cannot encode the data: ")
    and culprit(v, find(res, "its text would be longer", 1, true) ~= nil)
  error(where and (res .. ", at " .. name .. "." .. where) or res, 0)
end

--- JSON list of values first..last of t, sharing one set of limits; a value that
--- cannot be encoded shows as the text "<cannot show: why>".
function E.to_json_list(t, first, last)
  return encoding(function()
    local parts = {}
    for i = first, last do
      local out = {}
      local ok, err = pcall(encode, t[i], out)
      if not ok then
        bytes_left = math.max(bytes_left, 1000)
        out = { quote("<cannot show: " .. (type(err) == "string" and err or "an error") .. ">") }
      end
      parts[#parts + 1] = concat(out)
    end
    return "[" .. concat(parts, ",") .. "]"
  end)
end

-------------------------------------------------------------------------------
-- Small helpers shared by the engine files.
-------------------------------------------------------------------------------
function E.copy(t)
  local c = {}
  for k, v in next, t do c[k] = v end
  return c
end

--- The one empty table of every card with no tokens or nothing under it (most cards):
--- read-only, so forks, checkpoints and views share it instead of copying it (E.deep_copy
--- and E.copier keep every table with a metatable as it is). The cards and tokens APIs
--- give a card a table of its own before its first token or attached card.
E.EMPTY = setmetatable({}, {
  __newindex = function()
    error("a card's tokens change through tokens.add/set/remove, and what is under it through cards.attach", 2)
  end,
  __metatable = false,
})

local tmove = table.move
function E.copy_list(t)
  return tmove(t, 1, #t, 1, {})
end

-- Messages for whoever watches the match (the REPL, `summon play`): text for every seat,
-- or {player, text, others} for one seat, the others reading `others` ("": nothing).
E.messages = {}
E.quiet = false
function E.say(text, to, others)
  if E.quiet then return end
  local m = E.messages
  if #m >= 10000 then return end
  text = E.clean_text(tostring(text))
  if to ~= nil then text = { to, text, others and E.clean_text(others) or "" } end
  m[#m + 1] = text
end

function E.drain_messages()
  local m = E.messages
  E.messages = {}
  return m
end

-------------------------------------------------------------------------------
-- Matches side by side: one runtime may hold several matches (a match and its
-- forks). Each engine file that keeps per-match values outside E.state registers
-- how to put them in a table and take them back; E.switch_match swaps them.
-------------------------------------------------------------------------------
local match_parts = {}

--- Registers save(m) (copy this file's per-match values into table m) and load(m)
--- (take them back from m).
function E.match_part(save, load)
  match_parts[#match_parts + 1] = { save, load }
end

--- Stores the running match's values in m.
function E.save_match(m)
  for i = 1, #match_parts do match_parts[i][1](m) end
  return m
end

--- Makes the match stored in m the running one.
function E.load_match(m)
  for i = 1, #match_parts do match_parts[i][2](m) end
end

-- The metatables scripts have set (sandbox.lua's setmetatable notes each): a table with
-- one is a script's object and is copied with the rest, its metatable shared. (Weak keys:
-- a metatable nothing uses any more is of no matter to a copy.)
local script_mts = setmetatable({}, { __mode = "k" })
E.script_mts = script_mts

--- A copy of plain data that shares no table with the original (tables met twice are
--- copied once, so shared references stay shared). Tables with a metatable of the engine's
--- (its read-only views) are kept as they are; a script's object is copied, and keeps its
--- metatable.
local getmt = debug.getmetatable   -- (the real one: a script may set __metatable)
local setmt = setmetatable
local deep_copy

-- A table met in a copy: its copy (made once), keeping a script's metatable; an engine's
-- view as it is.
local function copied(x, memo)
  local mt = getmt(x)
  if mt == nil then return memo[x] or deep_copy(x, memo) end
  if not script_mts[mt] then return x end
  local own = memo[x]
  if own == nil then own = setmt(deep_copy(x, memo), mt) end
  return own
end

function deep_copy(t, memo)
  local c = memo[t]
  if c then return c end
  c = {}
  memo[t] = c
  for k, v in next, t do
    if type(v) == "table" then
      if getmt(v) == nil then v = memo[v] or deep_copy(v, memo) else v = copied(v, memo) end
    end
    -- (a table as a key is copied too: a card as a key finds the copy's own card)
    if type(k) == "table" then k = copied(k, memo) end
    c[k] = v
  end
  return c
end
function E.deep_copy(t) return deep_copy(t, {}) end

-- (E.copier, a copier compiled for a checkpoint's state: engine/lua/forking.lua, loaded with forks;
-- it compiles Lua text with this, the runtime's own `load`, which scripts never see)
E.load_text, E.raw_getmetatable = load, getmt

-- The context stack names the phase, hook or ability running, for error reports.
-- Entries are (what, card) pairs kept unformatted until an error needs them.
E.context = {}
local ctx_n = 0
function E.push_context(what, card)
  local c = E.context
  c[ctx_n * 2 + 1], c[ctx_n * 2 + 2] = what, card or false
  ctx_n = ctx_n + 1
end
function E.pop_context()
  ctx_n = ctx_n - 1
  local c = E.context
  c[ctx_n * 2 + 1], c[ctx_n * 2 + 2] = nil, nil
end

function E.context_depth() return ctx_n end

E.match_part(function(m)
  m.state, m.forced, m.messages, m.quiet, m.context, m.ctx_n = E.state, E.forced, E.messages, E.quiet, E.context, ctx_n
end, function(m)
  E.state, E.forced, E.messages, E.quiet, E.context, ctx_n = m.state, m.forced, m.messages, m.quiet, m.context, m.ctx_n
end)

function E.restore_context_depth(n)
  local c = E.context
  for i = ctx_n * 2, n * 2 + 1, -1 do c[i] = nil end
  ctx_n = n
end

--- Sets the context stack aside (for code run outside the match); returns a token for restore.
function E.set_context_aside()
  local saved = { E.context, ctx_n }
  E.context, ctx_n = {}, 0
  return saved
end

function E.restore_context(saved)
  E.context, ctx_n = saved[1], saved[2]
end

local CONTEXT_LINES = 40   -- lines of running contexts an error shows (41 with the line saying how many more)

local function context_line(i)
  local what, card = E.context[i * 2 - 1], E.context[i * 2]
  if card then   -- (raw fields, shown as values: a script may have set a card's name to anything)
    local name, id = rawget(card, "name"), rawget(card, "id")
    return what .. " of " .. (type(name) == "string" and name or E.show(name)) .. " (card " ..
           (math.type(id) == "integer" and tostring(id) or E.show(id)) .. ")"
  end
  return what
end

-- How many times the k entries from i down repeat, one run after another (1: not again).
local function repeats(i, k)
  local c, n = E.context, 1
  while i - (n + 1) * k + 1 >= 1 do
    local base, at = i - n * k, i
    for j = 0, k * 2 - 1 do
      if c[(base - k + 1) * 2 - 1 + j] ~= c[(at - k + 1) * 2 - 1 + j] then return n end
    end
    n = n + 1
  end
  return n
end

--- The running contexts, innermost first, as text.
function E.context_lines()
  local out = {}
  local i = ctx_n
  while i >= 1 do
    -- an entry, or a few, that run within themselves again and again (endless, mostly):
    -- said once, with how often, not thousands of lines
    local k, n = 1, 1
    for size = 1, 8 do
      local r = repeats(i, size)
      if r >= 3 then k, n = size, r break end
    end
    for j = 0, k - 1 do out[#out + 1] = context_line(i - j) end
    if n >= 3 then
      out[#out] = out[#out] .. string.format(", within %s %d times more: %s again " ..
        "(a hook emitting the event it hears, a modifier asking for the stat it modifies)",
        k == 1 and "itself" or "these", n - 1,
        k == 1 and "something it does runs it" or "something they do runs them")
    end
    i = i - k * n
  end
  if #out > CONTEXT_LINES + 1 then   -- (what no cycle explains: the innermost and the outermost)
    local kept, inner = {}, CONTEXT_LINES - 10
    for j = 1, inner do kept[j] = out[j] end
    kept[inner + 1] = string.format("... %d more", #out - CONTEXT_LINES)
    for j = #out - 9, #out do kept[#kept + 1] = out[j] end
    out = kept
  end
  return out
end
