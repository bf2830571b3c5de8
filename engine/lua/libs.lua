-- The string, table, utf8 and math libraries as scripts see them, each function bounded
-- by the work it does. A C library function runs inside one Lua instruction,
-- where the step count cannot see it; so each one here charges the budget
-- (E.charge, flow.lua) for its work, worked out from the sizes of its arguments or
-- results, or refuses at once work no budget could pay for. A table with a
-- metatable, and a long list to sort, are read and written from Lua instead, where
-- every step is counted.
--
-- Units: one unit is about one Lua instruction's time (3 ns here): 4 bytes of a
-- byte-by-byte loop (upper, utf8.len), 8 bytes copied, one step of the pattern
-- matcher; a table element read and written by C is 8. The budget counts steps
-- (engine/steps.py): E.charge takes 20 units as a step.
--
-- Errors of the C functions (and of this file) are raised at the script's line.
-- The engine's own Lua keeps the plain functions: the global tables are left as
-- they are. String methods ("x"):rep() go through these for everyone.
local E = ...

local type, select, xpcall, error, tostring, tonumber = type, select, xpcall, error, tostring, tonumber
local getmetatable, next = getmetatable, next
local floor, mtype, tointeger = math.floor, math.type, math.tointeger
local getinfo = debug.getinfo
local s_byte, s_char, s_find, s_format, s_gmatch, s_gsub, s_lower, s_match, s_rep, s_reverse,
      s_sub, s_upper, s_pack, s_packsize, s_unpack =
  string.byte, string.char, string.find, string.format, string.gmatch, string.gsub, string.lower,
  string.match, string.rep, string.reverse, string.sub, string.upper, string.pack, string.packsize,
  string.unpack
local t_concat, t_insert, t_move, t_remove, t_sort, t_unpack =
  table.concat, table.insert, table.move, table.remove, table.sort, table.unpack
local u_char, u_codepoint, u_len, u_offset = utf8.char, utf8.codepoint, utf8.len, utf8.offset
local charge = E.charge

E.MAX_STRING = 16 * 1024 * 1024   -- bytes string.rep and string.pack may build
local MAX_STRING = E.MAX_STRING
local MAX_MATCH_WORK = 1e7         -- pattern steps one call may take at most
local SMALL = 256                  -- work below this many units is not worth a charge
local MAX_RESULTS = 100000         -- values one call may return (they pass through Lua frames here)
local NO_MEMORY = "not enough memory"

-------------------------------------------------------------------------------
-- Errors at the script's line
-------------------------------------------------------------------------------
local HERE = "@engine/lua/libs.lua"
local HERE_PLACE = "engine/lua/libs.lua:"

--- A message of ours or of a C library function, placed at the line of the
--- script that called into this file: the first Lua frame up the stack past this
--- file's own frames. When the script reached us by a tail call (`return
--- string.rep(...)`), Lua has dropped its frame: the message then names no place
--- rather than a wrong one. A message that names a place already (an error from a
--- script's callback) is left as it is, unless the place is in this file.
local function blame(msg)
  if type(msg) ~= "string" or msg == NO_MEMORY then return msg end
  if s_sub(msg, 1, #HERE_PLACE) == HERE_PLACE then
    msg = s_gsub(msg, "^[^:]*:%d+: ", "", 1)
  elseif s_find(msg, "^engine/lua/") then   -- (a script's callback called the engine badly: placed now,
    return E.blamed_on(msg, E.called_from(2)) or msg   -- while the callback's frames are still here)
  elseif E.has_place(msg) then
    return msg
  end
  local raiser = getinfo(2, "f")
  if raiser and raiser.func == E.IPAIRS_STEP then msg = E.ipairs_message(msg) end
  -- up to the first frame in this file (frames above it raised the error), then past
  -- this file's frames and C's
  local level, tail = 2, false
  local info = getinfo(level, "Slt")
  while info and info.source ~= HERE do
    level = level + 1
    info = getinfo(level, "Slt")
  end
  while info and (info.what == "C" or info.source == HERE) do
    if info.source == HERE then tail = info.istailcall end
    level = level + 1
    info = getinfo(level, "Slt")
  end
  if tail and info then   -- (a hook's `return string.rep(x)`: said where the hook is defined)
    local ran = E.script_fn_run_at(level)
    if ran then return E.defined_at(ran) .. msg .. E.tail_called_here() end
  end
  if info == nil or tail or info.currentline <= 0 then return msg end
  msg = info.short_src .. ":" .. info.currentline .. ": " .. msg
  if s_find(info.source, "^@engine/lua/") then   -- (the engine's own code, given a bad value by a script)
    return E.blamed_on(msg, E.called_from(level)) or msg
  end
  return msg
end

--- Raises a message of ours at the script's line.
local function fail(msg)
  error(blame(msg), 0)
end

-- The results of xpcall(f, blame, ...), or its error raised again (blame placed it
-- where it happened). Out of memory: the call copied up to the memory cap before
-- it failed, and the budget pays for that.
local function results(ok, ...)
  if ok then return ... end
  local err = ...
  if err == NO_MEMORY then charge(MAX_STRING >> 3) end
  error(err, 0)
end

-- Like results, and charges for each result (byte, codepoint, unpack).
local function counted(ok, ...)
  if not ok then return results(ok, ...) end
  local n = select("#", ...)
  if n > SMALL then charge(2 * n) end
  return ...
end

-- Like results, and charges for the string built, by its length.
local function built(ok, r, ...)
  if not ok then return results(ok, r, ...) end
  if type(r) == "string" and #r > SMALL * 8 then charge(#r >> 3) end
  return r, ...
end

--- Charges n units, or refuses at once work no budget could pay for: `what`
--- (formatted with `count`) says what that work was.
local function cost(fn, n, what, count)
  local limit = E.limits.steps        -- (0: no budget, a benchmark's variant)
  if limit > 0 and n > limit * 20 then
    fail(s_format("%s: " .. what .. " is more work than a script may do before the next decision", fn, count))
  end
  if n > SMALL then charge(n) end
end

-- Lengths and integers as the C functions read their arguments: numbers count as
-- strings, and numeric strings as numbers.
local function strlen(s)
  local ts = type(s)
  if ts == "string" then return #s end
  if ts == "number" then return #tostring(s) end
  return nil
end

local function int(v)
  if mtype(v) == "integer" then return v end
  local tv = type(v)
  if tv == "number" then return tointeger(v) end
  if tv ~= "string" then return nil end
  if #v > 64 then charge(#v >> 2) end             -- reading a long text costs its length
  return tointeger(tonumber(v))
end

-------------------------------------------------------------------------------
-- Patterns: a bound on the steps of Lua's matcher, checked before the call
-------------------------------------------------------------------------------

-- Index just past the set that starts at i ('[' ... ']'), read as lstrlib reads it.
local function set_end(pat, i, len)
  i = i + 1
  if s_byte(pat, i) == 94 then i = i + 1 end          -- ^
  repeat
    if i > len then return len + 1 end                 -- malformed: C reports it
    local b = s_byte(pat, i)
    i = i + 1
    if b == 37 and i <= len then i = i + 1 end         -- %x
  until s_byte(pat, i) == 93                           -- ]
  return i + 1
end

--- At most how many steps Lua's matcher takes with a pattern, as a polynomial in
--- the subject's length n (the same for every subject, so it is worked out once
--- per pattern). `anchor`: a leading ^ anchors (not so in gmatch). The matcher
--- tries each start position; from there each item is reached once per way the
--- items before it matched: a repetition (* + -) that more pattern follows may
--- hand each length of its match on to the rest (n + 1 ways; 2 for ?). An item
--- costs a step per byte of it (a set is tried whole), a repetition counts up to n
--- bytes, %b and back-references scan up to n. A repetition at the very end either
--- matches (and the match is over) or fails at once: its counting is paid once.
local function analyse(pat, anchor)
  local len = #pat
  local i, anchored = 1, false
  if anchor and s_byte(pat, 1) == 94 then i, anchored = 2, true end
  local power, ways, terms, once, reps = 0, 1.0, {}, 0, 0   -- reach = ways * (n + 1)^power
  local function add(p, c) terms[p] = (terms[p] or 0) + c end
  while i <= len do
    local b = s_byte(pat, i)
    local item_end
    if b == 40 or b == 41 or (b == 36 and i == len) then   -- ( ) and a final $
      add(power, ways)
      i = i + 1
    elseif b == 37 then                                     -- %
      local c = s_byte(pat, i + 1)
      if c == 98 then                                       -- %bxy
        add(power + 1, ways)
        reps, i = reps + 1, i + 4
      elseif c == 102 then                                  -- %f[set]
        local e = set_end(pat, i + 2, len)
        add(power, ways * (e - i))
        i = e
      elseif c and c >= 48 and c <= 57 then                 -- %1 .. %9
        add(power + 1, ways)
        reps, i = reps + 1, i + 2
      else
        item_end = i + 2
      end
    elseif b == 91 then                                     -- [set]
      item_end = set_end(pat, i, len)
    else
      item_end = i + 1
    end
    if item_end then
      local size, q = item_end - i, s_byte(pat, item_end)
      i = item_end
      if q == 42 or q == 43 or q == 45 then                 -- * + -
        i, reps = i + 1, reps + 1
        if s_find(pat, "^%)*$", i) then                     -- nothing left to match after it
          add(power, ways * size)
          if q ~= 45 then once = size end
        else
          add(power + 1, ways * size)
          power = power + 1
        end
      elseif q == 63 then                                   -- ?
        add(power, ways * size)
        ways, i, reps = ways * 2, i + 1, reps + 1
      else
        add(power, ways * size)
      end
    end
  end
  return { terms = terms, top = power + 1, once = once, reps = reps, anchored = anchored }
end

local analysed = { [true] = {}, [false] = {} }   -- pattern -> analysis, by anchor
local analysed_count = 0

local function pattern_work(pat, n, anchor)
  local a = analysed[anchor][pat]
  if a == nil then
    if analysed_count >= 1000 then                  -- keep the cache small
      analysed, analysed_count = { [true] = {}, [false] = {} }, 0
    end
    a = analyse(pat, anchor)
    analysed[anchor][pat], analysed_count = a, analysed_count + 1
  end
  local x, work, p = n + 1.0, 0.0, 1.0
  local terms = a.terms
  for e = 0, a.top do
    local c = terms[e]
    if c then work = work + c * p end
    p = p * x
  end
  if not a.anchored then work = work * x end
  return work + a.once * x, a.reps
end

local function check_pattern(fn, subject, pat, anchor, plain)
  local n = strlen(subject)
  if n == nil or type(pat) ~= "string" then return end  -- C reports the bad argument
  local m = #pat
  if plain or (fn == "string.find" and not s_find(pat, "[%^%$%*%+%?%.%(%[%%%-]")) then
    -- memchr and memcmp, no backtracking: at worst every byte starts a comparison
    cost(fn, floor((n + 1) * (1 + m / 64)), "searching %d characters for a text of " .. m, n)
    return
  end
  if m > 1000 then fail(fn .. ": pattern longer than 1000 characters") end
  local work, reps = pattern_work(pat, n, anchor)
  if work > MAX_MATCH_WORK then
    fail(s_format("%s: this pattern could take up to %.3g steps on a string of %d characters " ..
                  "(the limit is %.3g; repeated items: %d)", fn, work, n, MAX_MATCH_WORK, reps))
  end
  if work > SMALL then charge(floor(work)) end
end

-------------------------------------------------------------------------------
-- string
-------------------------------------------------------------------------------
local S = {}
for k, v in next, string do S[k] = v end            -- len is O(1) and stays as it is
S.dump = nil

-- How many bytes s:byte(i, j) and utf8.codepoint(s, i, j) read, as lstrlib counts
-- them (i defaults to 1, j to i; negative ones count from the end); nil when an
-- argument is not a number (C reports it).
local function span(s, i, j)
  local len = strlen(s)
  if len == nil or len <= MAX_RESULTS then return 0 end
  local first = i == nil and 1 or int(i)
  if first == nil then return nil end
  if first < 0 then first = first < -len and 1 or len + first + 1 elseif first == 0 then first = 1 end
  local last = j == nil and first or int(j)
  if last == nil then return nil end
  if last < 0 then last = len + last + 1 elseif last > len then last = len end
  return last - first + 1
end

-- Texts given where C reads a number (positions, codes, counts, packed values) are read
-- in time proportional to their length: charged by it, as tonumber is.
local function texts_read_as_numbers(...)
  for k = 1, select("#", ...) do
    local v = select(k, ...)
    if type(v) == "string" and #v > 64 then charge(#v >> 2) end
  end
end
E.texts_read_as_numbers = texts_read_as_numbers

function S.byte(s, i, j)
  local n = span(s, i, j)
  if n and n > MAX_RESULTS then fail("string slice too long") end
  return counted(xpcall(s_byte, blame, s, i, j))
end

function S.char(...)
  texts_read_as_numbers(...)
  return built(xpcall(s_char, blame, ...))
end

local c_format = E.c_format
function S.format(f, ...)                          -- (the rules call it most: no vararg helper)
  -- Fast path: C formats it; only a result that could hold an address ("0x...", from a
  -- table, function or %p) or a NaN ("nan", "-nan", and "-NAN" from %E %F %G) is made
  -- again by the portable path (portable.lua), which spells those one way or refuses. A
  -- false alarm costs only time.
  local ok, r = xpcall(c_format, blame, f, ...)
  if ok and not s_find(r, "0x", 1, true) and not s_find(r, "nan", 1, true) and not s_find(r, "NAN", 1, true) then
    if #r > SMALL * 8 then charge(#r >> 3) end
    return r
  end
  ok, r = xpcall(s_format, blame, f, ...)
  if not ok then   -- (called through xpcall, Lua names the function '?')
    if type(r) == "string" then r = (s_gsub(r, " to '%?' ", " to 'string.format' ", 1)) end
    return results(ok, r)
  end
  if #r > SMALL * 8 then charge(#r >> 3) end
  return r
end


function S.sub(s, i, j)
  if type(i) == "string" or type(j) == "string" then texts_read_as_numbers(i, j) end
  return built(xpcall(s_sub, blame, s, i, j))
end

local function per_byte(c_fn)
  return function(s)
    local n = strlen(s)
    if n and n > SMALL then charge(n >> 2) end
    return built(xpcall(c_fn, blame, s))
  end
end
S.upper = per_byte(s_upper)
S.lower = per_byte(s_lower)
S.reverse = per_byte(s_reverse)

function S.rep(s, n, sep)
  local len, count = strlen(s), int(n)
  if len and count and count > 0 then
    local seplen = sep == nil and 0 or strlen(sep) or 0
    local size = len * (count + 0.0) + seplen * (count - 1.0)
    if size > MAX_STRING then fail(s_format("string.rep: result of %.0f bytes is too large", size)) end
    -- one copy a repetition, even of nothing: ("").rep("", 1e18) would loop for ever
    cost("string.rep", count + floor(size / 8), "repeating a text %.0f times", count + 0.0)
  end
  return results(xpcall(s_rep, blame, s, n, sep))
end

function S.find(s, pat, init, plain)
  check_pattern("string.find", s, pat, true, plain)
  return results(xpcall(s_find, blame, s, pat, init, plain))
end

function S.match(s, pat, init)
  check_pattern("string.match", s, pat, true)
  return results(xpcall(s_match, blame, s, pat, init))
end

function S.gmatch(s, pat, init)
  check_pattern("string.gmatch", s, pat, false)    -- for the whole iteration
  return results(xpcall(s_gmatch, blame, s, pat, init))
end

function S.gsub(s, pat, repl, n)
  check_pattern("string.gsub", s, pat, true)
  return built(xpcall(s_gsub, blame, s, pat, repl, n))
end

-- string.pack: the size of the result, worked out from the format (in Lua, so
-- counted) before anything is packed.
local PACK_SIZES = { b = 1, B = 1, h = 2, H = 2, l = 8, L = 8, j = 8, J = 8, T = 8,
                     f = 4, d = 8, n = 8, i = 4, I = 4, s = 8, x = 1 }

local function pack_size(f, ...)
  local total, arg, i, len = 0, 1, 1, #f
  while i <= len do
    local c = s_sub(f, i, i)
    local digits = s_match(f, "^%d+", i + 1)
    i = i + 1 + (digits and #digits or 0)
    local size = tonumber(digits)
    if c == "c" then
      size = size or 0
      arg = arg + 1
    elseif c == "i" or c == "I" or c == "s" then
      size = (size or PACK_SIZES[c]) + 16          -- with its alignment
      if c == "s" then size = size + (strlen((select(arg, ...))) or 0) end
      arg = arg + 1
    elseif c == "z" then
      size = (strlen((select(arg, ...))) or 0) + 1
      arg = arg + 1
    elseif c == "X" then
      size = 16                                    -- alignment padding at most
      if i <= len and not s_find(s_sub(f, i, i), "[%s<>=!]") then
        local d = s_match(f, "^%d+", i + 1)        -- the option it aligns to, and its size
        i = i + 1 + (d and #d or 0)
      end
    elseif PACK_SIZES[c] then
      size = PACK_SIZES[c] + 16
      if c ~= "x" then arg = arg + 1 end
    else
      size = 0                                     -- < > = ! and spaces; C reports others
    end
    total = total + size
  end
  return total
end

function S.pack(f, ...)
  if type(f) == "string" then
    local size = pack_size(f, ...)
    if size > MAX_STRING then fail(s_format("string.pack: result of %.0f bytes is too large", size)) end
    if size > SMALL * 8 then charge(floor(size / 8)) end
  end
  texts_read_as_numbers(...)
  return results(xpcall(s_pack, blame, f, ...))
end

function S.packsize(f)
  local n = strlen(f)
  if n and n > SMALL then charge(n) end
  return results(xpcall(s_packsize, blame, f))
end

function S.unpack(f, s, pos)
  local n, m = strlen(f), strlen(s)
  if n and n > MAX_RESULTS then fail("string.unpack: too many results") end
  if n and m and n + (m >> 3) > SMALL then charge(n + (m >> 3)) end
  return counted(xpcall(s_unpack, blame, f, s, pos))
end

-------------------------------------------------------------------------------
-- table: a plain table goes to the C function once its work is charged; a table
-- with a metatable is read and written from Lua, in loops whose every turn is a
-- counted step, so a lying __len or a C function as __index cannot make C loop for
-- ever. Lengths are read once, here, and handed on, so C never asks __len again.
-------------------------------------------------------------------------------
local T = {}
for k, v in next, table do T[k] = v end

local function length(t, fn)
  local n = int(#t)
  if n == nil then fail(fn .. ": object length is not an integer") end
  return n
end

local function position(v, fn, argn)
  local i = int(v)
  if i == nil then
    fail(s_format("bad argument #%d to '%s' (number has no integer representation)", argn, fn))
  end
  return i
end

local function out_of_bounds(fn, argn)
  fail(s_format("bad argument #%d to '%s' (position out of bounds)", argn, fn))
end

-- Element work of sorting n elements: n log n comparisons and moves.
local function sort_work(n)
  if n < 2 then return 0 end
  local log = 1
  while (1 << log) < n and log < 62 do log = log + 1 end
  return 8 * n * log
end

-- The bodies below run under xpcall from their wrappers.
local function insert_through(t, ...)
  local nargs = select("#", ...)
  local e = length(t, "table.insert") + 1
  if nargs == 1 then
    t[e] = ...
  elseif nargs == 2 then
    local pos, v = ...
    pos = position(pos, "table.insert", 2)
    if pos - 1 < 0 or pos - 1 >= e then out_of_bounds("table.insert", 2) end
    for i = e, pos + 1, -1 do t[i] = t[i - 1] end
    t[pos] = v
  else
    fail("wrong number of arguments to 'insert'")
  end
end

function T.insert(t, ...)
  if type(t) ~= "table" then return results(xpcall(t_insert, blame, t, ...)) end
  if getmetatable(t) ~= nil then return results(xpcall(insert_through, blame, t, ...)) end
  local nargs = select("#", ...)
  if nargs == 1 then                              -- an append: what C would do, without C
    t[#t + 1] = ...
    return
  end
  if nargs == 2 then
    local e, pos = #t + 1, int((...))
    if pos and pos >= 1 and pos <= e then cost("table.insert", 8 * (e - pos), "moving %.0f elements", e - pos + 0.0) end
  end
  return results(xpcall(t_insert, blame, t, ...))
end

local function remove_through(t, pos)
  local size = length(t, "table.remove")
  if pos == nil then
    pos = size
  else
    pos = position(pos, "table.remove", 2)
    if pos ~= size and (pos - 1 < 0 or pos - 1 > size) then out_of_bounds("table.remove", 2) end
  end
  local v = t[pos]
  while pos < size do
    t[pos] = t[pos + 1]
    pos = pos + 1
  end
  t[pos] = nil
  return v
end

function T.remove(t, pos)
  if type(t) ~= "table" then return results(xpcall(t_remove, blame, t, pos)) end
  if getmetatable(t) ~= nil then return results(xpcall(remove_through, blame, t, pos)) end
  local size, p = #t, int(pos)
  if p and p >= 1 and p <= size then cost("table.remove", 8 * (size - p), "moving %.0f elements", size - p + 0.0) end
  return results(xpcall(t_remove, blame, t, pos))
end

-- Lua's C sort picks a pivot from the clock once a list of 128 or more falls out of
-- balance, so elements its comparison calls equal could end in another order in
-- another run. Long lists are sorted here instead: a merge sort, stable, and
-- counted step by step. (Shorter lists are sorted the same way every time.)
local RANDOM_PIVOTS = 128

local function merge_sort(t, n, comp)
  local lt = comp or function(a, b) return a < b end
  local src, dst = {}, {}
  for i = 1, n do src[i] = t[i] end
  local width = 1
  while width < n do
    for lo = 1, n, 2 * width do
      local mid, hi = lo + width, lo + 2 * width
      if mid > n + 1 then mid = n + 1 end
      if hi > n + 1 then hi = n + 1 end
      local l, r = lo, mid
      for k = lo, hi - 1 do
        if r < hi and (l >= mid or lt(src[r], src[l])) then
          dst[k], r = src[r], r + 1
        else
          dst[k], l = src[l], l + 1
        end
      end
    end
    src, dst = dst, src
    width = 2 * width
  end
  for i = 1, n do t[i] = src[i] end
end

-- The merge sort runs inside a C call (gsub calls its replacement function once on an
-- empty text), as C's sort runs its comparisons: an order function (or __lt) that asks
-- for a choice then fails the same way for a list of any length, instead of yielding
-- from a long sort only.
local function merge_sort_in_c(t, n, comp)
  s_gsub("", "", function() merge_sort(t, n, comp) end)
end

-- A table with a metatable is sorted through a copy, read and written from Lua.
local function sort_through(t, comp)
  local n = length(t, "table.sort")
  local copy = {}
  for i = 1, n do copy[i] = t[i] end
  if n >= RANDOM_PIVOTS then
    merge_sort_in_c(copy, n, comp)
  else
    cost("table.sort", sort_work(n), "sorting %.0f elements", n + 0.0)
    t_sort(copy, comp)
  end
  for i = 1, n do t[i] = copy[i] end
end

function T.sort(t, comp)
  if type(t) ~= "table" then return results(xpcall(t_sort, blame, t, comp)) end
  if comp ~= nil and type(comp) ~= "function" then
    fail("bad argument #2 to 'table.sort' (function expected, got " .. type(comp) .. ")")
  end
  if getmetatable(t) ~= nil then return results(xpcall(sort_through, blame, t, comp)) end
  local n = #t
  if n >= RANDOM_PIVOTS then return results(xpcall(merge_sort_in_c, blame, t, n, comp)) end
  if n > 8 then charge(sort_work(n)) end          -- under 128: never more than the budget
  return results(xpcall(t_sort, blame, t, comp))
end

-- First and last index for concat and unpack: as given, or 1 and #t read here once.
-- nil when one given is not an integer (the C function then reports it).
local function range(t, i, j, fn)
  local first = 1
  if i ~= nil then first = int(i) end
  if j ~= nil then return first, int(j) end
  return first, length(t, fn)
end

function T.concat(t, sep, i, j)
  if i == nil and j == nil and type(t) == "table" and getmetatable(t) == nil then   -- the usual call
    local n = #t
    if n > SMALL / 8 then cost("table.concat", 8 * n, "joining %.0f elements", n + 0.0) end
    return built(xpcall(t_concat, blame, t, sep, 1, n))
  end
  if type(t) == "table" then
    local first, last = range(t, i, j, "table.concat")
    if first and last then
      local n = last - first + 1
      if getmetatable(t) == nil and first >= 1 and first <= #t + 1 and last > #t then
        n = #t - first + 2                          -- C stops at the first nil, at #t + 1
      end
      cost("table.concat", 8 * n, "joining %.0f elements", n + 0.0)
      return built(xpcall(t_concat, blame, t, sep, first, last))
    end
  end
  return built(xpcall(t_concat, blame, t, sep, i, j))
end

function T.unpack(t, i, j)
  if type(t) == "table" then
    local first, last = range(t, i, j, "table.unpack")
    if first and last then
      if last - first >= MAX_RESULTS then fail("too many results to unpack") end
      cost("table.unpack", 2 * (last - first + 1), "unpacking %.0f values", last - first + 1.0)
      return results(xpcall(t_unpack, blame, t, first, last))
    end
  end
  return results(xpcall(t_unpack, blame, t, i, j))
end

function T.move(a1, f, e, t, a2)
  local first, last = int(f), int(e)
  if first and last and last >= first then
    local n = last - first + 1.0
    cost("table.move", 8 * n, "moving %.0f elements", n)
  end
  return results(xpcall(t_move, blame, a1, f, e, t, a2))
end

-------------------------------------------------------------------------------
-- utf8 (codes iterates one character a call, and stays as it is)
-------------------------------------------------------------------------------
local U = {}
for k, v in next, utf8 do U[k] = v end

function U.char(...)
  return built(xpcall(u_char, blame, ...))
end

function U.codepoint(s, i, j, lax)
  local n = span(s, i, j)
  if n and n > MAX_RESULTS then fail("string slice too long") end
  return counted(xpcall(u_codepoint, blame, s, i, j, lax))
end

function U.len(s, i, j, lax)
  local n = strlen(s)
  if n and n > SMALL then charge(n >> 2) end
  return results(xpcall(u_len, blame, s, i, j, lax))
end

function U.offset(s, n, i)
  local len, k = strlen(s), int(n)
  if len and k then
    local work = k < 0 and -k or k
    if work > len then work = len end
    if work > SMALL then charge(work) end
  end
  return results(xpcall(u_offset, blame, s, n, i))
end

-------------------------------------------------------------------------------
-- Functions that read a text as a number read all of it ("1111...", or spaces
-- before one digit): 4 bytes a unit, as other byte-by-byte work. Numbers go
-- straight to the C function (the common case costs a type check); anything else
-- is charged, then called under blame, so errors name the script's line.
-------------------------------------------------------------------------------
local pack = table.pack

-- Charges for long texts among a math function's arguments (read as numbers), before the
-- function reads them.
local function charge_texts(...)
  local args = pack(...)
  for i = 1, args.n do
    local v = args[i]
    if type(v) == "string" and #v > SMALL then charge(#v >> 2) end
  end
end

local M = {}
for k, v in next, math do M[k] = v end
M.random, M.randomseed = nil, nil                  -- chance comes from the engine

-- math.type reads no number and stays as it is; the others (each wrapper calls xpcall in
-- its own frame: a tail call into a helper would mark that frame tail-called, and blame
-- would then name no line):
for _, name in ipairs({ "abs", "ceil", "floor", "sqrt", "exp", "sin", "cos", "tan", "asin", "acos",
                        "modf", "tointeger" }) do
  local fn = math[name]
  M[name] = function(x, ...)
    if type(x) == "number" then return fn(x, ...) end
    charge_texts(x, ...)
    return results(xpcall(fn, blame, x, ...))
  end
end
for _, name in ipairs({ "log", "atan" }) do       -- the second number may be left out
  local fn = math[name]
  M[name] = function(x, y, ...)
    if type(x) == "number" and (y == nil or type(y) == "number") then return fn(x, y, ...) end
    charge_texts(x, y, ...)
    return results(xpcall(fn, blame, x, y, ...))
  end
end
for _, name in ipairs({ "fmod", "ult" }) do
  local fn = math[name]
  M[name] = function(x, y, ...)
    if type(x) == "number" and type(y) == "number" then return fn(x, y, ...) end
    charge_texts(x, y, ...)
    return results(xpcall(fn, blame, x, y, ...))
  end
end
for _, name in ipairs({ "max", "min" }) do         -- any number of arguments, at least one
  local fn = math[name]
  M[name] = function(...)
    local x, y = ...
    if type(x) == "number" and type(y) == "number" and select("#", ...) == 2 then return fn(x, y) end
    charge_texts(...)
    return results(xpcall(fn, blame, ...))
  end
end

local function safe_tonumber(v, base)
  if type(v) == "string" and #v > SMALL then charge(#v >> 2) end
  if base == nil then return results(xpcall(tonumber, blame, v)) end
  if type(base) == "string" and #base > SMALL then charge(#base >> 2) end
  return results(xpcall(tonumber, blame, v, base))
end

--- select for scripts: a count given as a long text is charged by its length.
function E.safe_select(n, ...)
  if n == "#" then return select("#", ...) end
  if mtype(n) == "integer" and n >= 1 then return select(n, ...) end   -- (cannot fail)
  if type(n) == "string" and #n > 64 then charge(#n >> 2) end
  return results(xpcall(select, blame, n, ...))   -- an error names the script's line
end

E.safe_libs = { string = S, table = T, utf8 = U, math = M, tonumber = safe_tonumber }

-- Every string's methods ("x"):rep(3) are these; no script can reach the metatable. Any
-- other field of a text is an error, not nil: `c.def.strength`, where a card's `def` is its
-- id, read nil and a comparison with it was silently false.
local METHODS = {}
for k, v in next, S do METHODS[k] = v end
setmetatable(METHODS, { __index = function(_, k)
  local by = getinfo(2, "Sf")
  if by and by.func == E.IPAIRS_STEP then   -- (a for loop's ipairs over a text: said at the loop's line)
    error("ipairs needs a table (a list) to go through, got string", 3)
  end
  error("a text has no field " .. (type(k) == "string" and "'" .. s_sub(k, 1, 60) .. "'" or E.show(k)) ..
        " (a text's fields are the string functions: s:upper(); a card's def is its id: cards.def(c) is "
        .. "its definition)", by and by.what == "C" and 3 or 2)
end, __metatable = false })
local string_mt = getmetatable("")
string_mt.__index = METHODS
string_mt.__metatable = false

-- Arithmetic on text ("10" + 1) reads the text as a number through these metamethods
-- of the string library: a long text is charged by its length, as tonumber is.
for _, event in ipairs({ "__add", "__sub", "__mul", "__div", "__mod", "__pow", "__unm", "__idiv" }) do
  local raw = string_mt[event]
  if raw then
    string_mt[event] = function(a, b)
      local n = (type(a) == "string" and #a or 0) + (type(b) == "string" and #b or 0)
      if n > SMALL then charge(n >> 2) end
      return results(xpcall(raw, blame, a, b))   -- (an error names the script's line)
    end
  end
end
