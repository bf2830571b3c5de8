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

--- A stand-in for a card id that says nothing of the card: views show it for a face
--- the seat cannot see (ids follow creation order, so a real id could name the card).
--- It depends on the seed, which no seat sees, and uses no number from the generator.
function E.hidden_id(id)
  local _, z = splitmix(E.state.seed ~ (id * 0x632BE59BD9B4E019))
  return string.format("?%012x", z & 0xffffffffffff)
end

function E.rng_seed(seed)
  local s, x = {}, seed
  for i = 1, 4 do x, s[i] = splitmix(x) end
  E.state.rng = s
end

local function next64()
  local s = E.state.rng
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

-- Forced results (scenario tests) are taken before the generator is used.
E.forced = {}

--- Every draw from the generator is noted: fair undo cannot go back past it.
function E.random_int(lo, hi)
  local n = hi - lo + 1
  if n <= 0 then error("random_int: empty range " .. lo .. ".." .. hi, 2) end
  E.note("random number")
  local f = E.forced
  if #f > 0 then return table.remove(f, 1) end
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
-------------------------------------------------------------------------------
local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
local utf8_len = utf8.len

--- Text safe to hand to the host: invalid UTF-8 bytes become "?".
function E.clean_text(s)
  if utf8_len(s) then return s end
  local out = {}
  local i, n = 1, #s
  while i <= n do
    local ok, j = pcall(utf8.offset, s, 2, i)
    local ch = s:sub(i, (j or n + 1) - 1)
    if ok and j and utf8_len(ch) then out[#out + 1] = ch; i = j
    else out[#out + 1] = "?"; i = i + 1 end
  end
  return concat(out)
end

local function quote(s)
  s = E.clean_text(s)
  return '"' .. s:gsub('[%c"\\]', function(c)
    return escapes[c] or fmt("\\u%04x", c:byte())
  end) .. '"'
end

-- Serialising reads tables raw (no metamethods), so script data cannot run code here.
local rawlen = rawlen

local function is_sequence(t)
  local n = rawlen(t)
  if n == 0 then return next(t) == nil end
  local count = 0
  for _ in next, t do count = count + 1 end
  return count == n
end

local function keystr(k)
  local tk = type(k)
  if tk == "string" then return k end
  if tk == "number" then
    return math.type(k) == "integer" and fmt("%d", k) or fmt("%.17g", k)
  end
  return "<" .. tk .. ">"
end

local function encode(v, out, depth)
  if depth > 64 then error("state is nested too deeply to serialise") end
  local tv = type(v)
  if tv == "nil" then out[#out + 1] = "null"
  elseif tv == "boolean" then out[#out + 1] = v and "true" or "false"
  elseif tv == "number" then
    if mtype(v) == "integer" then out[#out + 1] = fmt("%d", v)
    elseif v ~= v or v == math.huge or v == -math.huge then out[#out + 1] = "null"
    elseif v == math.floor(v) and math.abs(v) < 2^53 then out[#out + 1] = fmt("%d", math.floor(v))
    else out[#out + 1] = fmt("%.17g", v) end
  elseif tv == "string" then out[#out + 1] = quote(v)
  elseif tv == "table" then
    if is_sequence(v) then
      local n = rawlen(v)
      if n == 0 then out[#out + 1] = "[]"; return end
      out[#out + 1] = "["
      for i = 1, n do
        if i > 1 then out[#out + 1] = "," end
        encode(rawget(v, i), out, depth + 1)
      end
      out[#out + 1] = "]"
    else
      local keys = {}
      local lookup = {}
      for k, val in next, v do
        local ks = keystr(k)
        if lookup[ks] == nil then keys[#keys + 1] = ks end
        lookup[ks] = val
      end
      sort(keys)
      out[#out + 1] = "{"
      for i, k in ipairs(keys) do
        if i > 1 then out[#out + 1] = "," end
        out[#out + 1] = quote(k)
        out[#out + 1] = ":"
        encode(lookup[k], out, depth + 1)
      end
      out[#out + 1] = "}"
    end
  elseif tv == "function" then out[#out + 1] = '"<function>"'
  else out[#out + 1] = quote("<" .. tv .. ">") end
end

function E.to_json(v)
  local out = {}
  encode(v, out, 0)
  return concat(out)
end

-------------------------------------------------------------------------------
-- Small helpers shared by the engine files.
-------------------------------------------------------------------------------
function E.copy(t)
  local c = {}
  for k, v in next, t do c[k] = v end
  return c
end

local tmove = table.move
function E.copy_list(t)
  return tmove(t, 1, #t, 1, {})
end

-- Messages for whoever watches the match (the REPL, `summon play`).
E.messages = {}
E.quiet = false
function E.say(text)
  if E.quiet then return end
  local m = E.messages
  if #m >= 10000 then return end
  m[#m + 1] = E.clean_text(tostring(text))
end

function E.drain_messages()
  local m = E.messages
  E.messages = {}
  return m
end

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

--- The running contexts, innermost first, as text.
function E.context_lines()
  local out = {}
  for i = ctx_n, 1, -1 do
    local what, card = E.context[i * 2 - 1], E.context[i * 2]
    if card then
      out[#out + 1] = string.format("%s of %s (card %d)", what, card.name, card.id)
    else
      out[#out + 1] = what
    end
  end
  return out
end
