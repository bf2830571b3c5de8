-- What scripts see must be the same in every process and on every machine. Lua itself
-- is not: it seeds its string hashes anew in each runtime (so `pairs` over string keys
-- comes in a different order each run), `tostring` of a table or function shows its
-- address, and the C library spells NaN "-nan" or "nan". Scripts get the functions
-- below instead; the engine's own code keeps the raw ones where order cannot matter.
local E = ...

local rawnext, rawget, type, mtype, tostring = next, rawget, type, math.type, tostring
local sort, fmt, find, gsub = table.sort, string.format, string.find, string.gsub
-- the real metatable, even behind __metatable (the engine's read-only views hide theirs)
local getmetatable = debug.getmetatable

-- Keys in one order everywhere: numbers, then strings, then false and true, then cards
-- (tables with an integer id) by id. Other keys (tables, functions) have no such order.
local RANK = { number = 1, string = 2, boolean = 3, table = 4 }

local function key_rank(k)
  local r = RANK[type(k)]
  if r == 4 and mtype(rawget(k, "id")) ~= "integer" then r = nil end
  return r
end

local function before(a, b)
  local ra, rb = key_rank(a), key_rank(b)
  if ra ~= rb then return ra < rb end
  if ra == 3 then return a == false and b == true end
  if ra == 4 then return rawget(a, "id") < rawget(b, "id") end
  return a < b
end

--- The keys of t in the fixed order; fails (naming fn) on a key that has none.
local function sorted_keys(t, fn)
  local keys, n = {}, 0
  local first, mixed = nil, false   -- the rank of the first key; whether another differs
  for k in rawnext, t do
    local r = key_rank(k)
    if r == nil then
      error(fn .. ": a table keyed by " .. type(k) .. "s has no order that is the same on every machine; " ..
            "key it by numbers, text or cards", 3)
    end
    if first == nil then first = r elseif r ~= first then mixed = true end
    n = n + 1
    keys[n] = k
  end
  if n > 1 then
    -- keys all numbers or all text (the common case) compare in C: the same order as before()
    if not mixed and (first == 1 or first == 2) then sort(keys)
    else
      sort(keys, before)
      -- two tables with one id (a card and a copy of it, say) have no order of their own
      for i = 2, n do
        local a, b = keys[i - 1], keys[i]
        if type(a) == "table" and type(b) == "table" and rawget(a, "id") == rawget(b, "id") then
          error(fn .. ": two of a table's keys are tables with the same id (" .. tostring(rawget(a, "id")) ..
                "): they have no order that is the same on every machine; key it by the cards themselves "
                .. "or by their ids", 3)
        end
      end
    end
  end
  return keys, n
end

--- What a table's own __pairs yields, as a plain table (the engine's read-only views have one).
local function through_pairs(t, mt)
  local out = {}
  local f, s, k = mt.__pairs(t)
  local v
  while true do
    k, v = f(s, k)
    if k == nil then return out end
    out[k] = v
  end
end

--- Whether pairs(t) lists what t holds: not for a view that reads through __index
--- with nothing of its own and no __pairs (pairs would list nothing, silently).
--- (`summon check` flags pairs over such a table: engine/lualint.py.)
function E.is_listable(t)
  if type(t) ~= "table" then return true end
  local mt = getmetatable(t)
  return not (type(mt) == "table" and mt.__index ~= nil and mt.__pairs == nil and next(t) == nil)
end

--- pairs for scripts: the keys in the fixed order (through a table's own __pairs when it
--- has one, so a read-only view gives its entries, never the table behind it).
function E.ordered_pairs(t)
  if type(t) ~= "table" then error("bad argument #1 to 'pairs' (table expected, got " .. type(t) .. ")", 2) end
  local mt = getmetatable(t)
  if type(mt) == "table" and mt.__pairs then t = through_pairs(t, mt) end
  local keys, n = sorted_keys(t, "pairs")
  local i = 0
  return function()
    while i < n do
      i = i + 1
      local k = keys[i]
      local v = rawget(t, k)
      if v ~= nil then return k, v end   -- skip keys removed during the loop
    end
    return nil
  end, nil, nil   -- the iterator holds what it needs: no table is handed out
end

--- next for scripts: the key after k in the fixed order (the first when k is nil).
function E.ordered_next(t, k)
  if type(t) ~= "table" then error("bad argument #1 to 'next' (table expected, got " .. type(t) .. ")", 2) end
  if rawnext(t) == nil then return nil end
  local keys, n = sorted_keys(t, "next")
  local i = 0
  if k ~= nil then
    i = nil
    for j = 1, n do if rawequal(keys[j], k) then i = j break end end
    if i == nil then error("next: that key is not in the table", 2) end
  end
  local nk = keys[i + 1]
  if nk == nil then return nil end
  return nk, rawget(t, nk)
end

-- The C library's spellings of NaN: "nan" or "-nan" (glibc, musl, macOS), "-nan(ind)" and
-- "nan(snan)" (Windows), in upper case for %E %F %G. Each becomes "nan" (or "NAN"). A bare
-- "-nan" counts only when no letter follows, so words like "anti-nanotech" keep theirs; a
-- NaN joined straight to a letter ("x" .. 0/0 .. "y") keeps the C library's spelling.
local lower, sub = string.lower, string.sub   -- the plain ones: string methods are the scripts'

local function windows_nan(nan, paren)
  local p = lower(paren)
  if p == "(ind)" or p == "(snan)" then return sub(nan, -3) end
end

local function one_nan(s, nan)
  if find(s, "(", 1, true) then s = gsub(s, "(%-?" .. nan .. ")(%(%a+%))", windows_nan) end
  return (gsub(s, "%-" .. nan .. "%f[%A]", nan))
end

--- Text with NaN spelt one way, whatever the C library printed (see above). Cheap when
--- the text holds no "nan": one plain search.
function E.portable_text(s)
  if find(s, "nan", 1, true) then s = one_nan(s, "nan") end
  if find(s, "NAN", 1, true) then s = one_nan(s, "NAN") end
  return s
end

--- A value as text for scripts (tostring, print, say, format): no addresses, and NaN spelled
--- one way. A __tostring that fails, or returns no text, is reported at `level` as error()
--- counts it from the function that calls text_at (1: that function, 2: its caller).
function E.text_at(v, level)
  local tv = type(v)
  if tv == "number" then
    if v ~= v then return "nan" end
    return tostring(v)
  end
  if tv == "table" or tv == "userdata" then
    local mt = getmetatable(v)
    if type(mt) == "table" and mt.__tostring then
      local ok, text = pcall(tostring, v)
      if not ok then
        if type(text) ~= "string" then error(text, 0) end   -- (an error value that is no text goes on as it is)
        local msg = gsub(text, "^[^\n]-portable%.lua:%d+: ", "")
        -- (a message that names its place already keeps it: the script's own error)
        error(msg, find(msg, "^[^\n:]+:%d+: ") and 0 or level + 1)
      end
      return E.portable_text(text)
    end
    if type(mt) == "table" and type(mt.__name) == "string" then return mt.__name end
    return tv
  end
  if tv == "function" or tv == "thread" then return tv end
  return tostring(v)
end

--- tostring for scripts (see E.text_at).
function E.portable_tostring(v)
  local text = E.text_at(v, 2)   -- (not a tail call: the level counts this function)
  return text
end

--- string.format for scripts: no %p (an address), tables and functions by type, NaN one way.
--- (Hot: rules build option labels with it, so the common case does no more than it must.)
local unpack = table.unpack
function E.portable_format(pattern, ...)
  if type(pattern) == "string" and find(pattern, "%p", 1, true) then
    local i = 1
    while true do
      local s, e, spec = find(pattern, "%%[-+ #0]*%d*%.?%d*([%a%%])", i)
      if not s then break end
      if spec == "p" then error("bad argument to 'format': %p would show an address", 2) end
      i = e + 1
    end
  end
  local n = select("#", ...)
  local args, nan = nil, false
  for j = 1, n do
    local a = select(j, ...)
    local ta = type(a)
    if ta == "number" then
      nan = nan or a ~= a
    elseif ta == "table" or ta == "function" or ta == "thread" or ta == "userdata" then
      args = args or { ... }
      args[j] = E.text_at(a, 2)
    end
  end
  local ok, text
  if args then ok, text = pcall(fmt, pattern, unpack(args, 1, n)) else ok, text = pcall(fmt, pattern, ...) end
  if not ok then   -- report it at the script's line, not here
    error(gsub(tostring(text), "^[^\n]-portable%.lua:%d+: ", ""), 2)
  end
  return nan and E.portable_text(text) or text
end

-- Scripts reach string.format both as string.format and as ("..."):format, which goes
-- through the string metatable to this same table.
E.c_format = fmt     -- the C function, for libs.lua's fast path (plain arguments only)
string.format = E.portable_format
