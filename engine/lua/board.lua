-- Board topology: a grid (orthogonal or 8-way adjacency) or a graph of named
-- spaces grouped into regions. Spaces are named by strings ("c4", "north_shore").
local E = ...

local B = {}
E.board = B

local ORTHO = { {0, 1}, {1, 0}, {0, -1}, {-1, 0} }
local EIGHT = { {0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1} }

local topo = {}   -- built once per match from the board definition
local occupied = {} -- the state's space -> card id map (the same table all match long)

local function grid_name(x, y)
  return string.char(96 + x) .. tostring(y)
end

E.match_part(function() end, function(m) occupied = m.state.spaces end)

--- Leaves out the regions whose `player_counts` does not list the match's number of
--- players, with their spaces and every link to them: a space not in play is not on the board.
local function leave_out(def, players)
  local gone = {}
  for name, r in pairs(def.regions or {}) do
    local counts = r.player_counts
    if counts ~= nil then
      local here = false
      for _, k in ipairs(counts) do if k == players then here = true end end
      if not here then
        gone[name] = true
        topo.regions[name] = nil
      end
    end
  end
  if next(gone) == nil then return end
  local kept = {}
  for _, s in ipairs(topo.list) do
    if gone[topo.region[s]] then
      topo.neighbors[s], topo.region[s] = nil, nil
      local p = topo.xy[s]
      if p then
        topo.at[p[1] * 1000 + p[2]], topo.xy[s] = nil, nil
      end
    else
      kept[#kept + 1] = s
    end
  end
  topo.list, topo.holes = kept, true
  for _, s in ipairs(kept) do
    local n, left = topo.neighbors[s], {}
    for i = 1, #n do
      if topo.neighbors[n[i]] ~= nil then left[#left + 1] = n[i] end
    end
    topo.neighbors[s] = left
  end
end

function E.build_board(def, players)
  occupied = E.state.spaces
  topo = { kind = def.type, list = {}, neighbors = {}, xy = {}, at = {}, region = {}, regions = {}, dist = {} }
  if def.type == "grid" then
    topo.width, topo.height = def.width, def.height
    topo.dirs = (def.adjacency == "eight") and EIGHT or ORTHO
    topo.eight = def.adjacency == "eight"
    for y = 1, def.height do
      for x = 1, def.width do
        local s = grid_name(x, y)
        topo.list[#topo.list + 1] = s
        topo.xy[s] = { x, y }
        topo.at[x * 1000 + y] = s
      end
    end
    for _, s in ipairs(topo.list) do
      local p, n = topo.xy[s], {}
      for _, d in ipairs(topo.dirs) do
        local o = topo.at[(p[1] + d[1]) * 1000 + p[2] + d[2]]
        if o then n[#n + 1] = o end
      end
      topo.neighbors[s] = n
    end
    if def.regions then
      -- by name, not in pairs order (which changes from run to run): the same board every time
      local names = {}
      for name in pairs(def.regions) do names[#names + 1] = name end
      table.sort(names)
      for _, name in ipairs(names) do
        local r = def.regions[name]
        topo.regions[name] = r
        for _, s in ipairs(r.spaces or {}) do
          local other = topo.region[s]
          if other ~= nil and other ~= name then   -- the loader refuses this (region(s) names one)
            error(string.format("board: space '%s' is in two regions, '%s' and '%s'", s, other, name), 0)
          end
          topo.region[s] = name
        end
      end
    end
  elseif def.type == "graph" then
    local names = {}
    for name in pairs(def.spaces) do names[#names + 1] = name end
    table.sort(names)
    for _, s in ipairs(names) do
      topo.list[#topo.list + 1] = s
      topo.neighbors[s] = {}
    end
    for _, s in ipairs(names) do
      local sp = def.spaces[s]
      topo.region[s] = sp.region
      for _, o in ipairs(sp.links or {}) do
        local function link(a, b)
          for _, v in ipairs(topo.neighbors[a]) do if v == b then return end end
          local n = topo.neighbors[a]
          n[#n + 1] = b
        end
        link(s, o)
        link(o, s)
      end
    end
    for _, s in ipairs(names) do table.sort(topo.neighbors[s]) end
    for name, r in pairs(def.regions or {}) do topo.regions[name] = r end
  else
    error("unknown board type " .. tostring(def.type))
  end
  leave_out(def, players)
end

-------------------------------------------------------------------------------
-- Errors for unknown names, shared by every engine table scripts see.
-------------------------------------------------------------------------------
--- A value as an error message shows it: names quoted, cards by name and id,
--- other tables by type (never by address, which differs between runs).
function E.show(v)
  local t = type(v)
  if t == "string" then return "'" .. v .. "'" end
  if t == "table" then
    if type(rawget(v, "name")) == "string" and math.type(rawget(v, "id")) == "integer" then
      return string.format("%s (card %d)", v.name, v.id)
    end
    return "a table"
  end
  if t == "number" or t == "boolean" or t == "nil" then return tostring(v) end
  return "a " .. t
end

--- Raises "fn: no <what> called 'name' (did you mean 'x'?)". level 2 (the
--- default) blames the caller of the function that calls no_such.
function E.no_such(fn, what, name, candidates, level)
  error(fn .. ": no " .. what .. " called " .. E.show(name) .. E.suggest(name, candidates), (level or 2) + 1)
end

local function no_space(fn, s, level)
  E.no_such(fn, "space", s, topo.list, (level or 2) + 1)
end

local function check_space(s, fn)
  if topo.neighbors[s] == nil then no_space(fn, s, 3) end
end

--- Every space, in a stable order.
function B.spaces()
  return E.copy_list(topo.list)
end

function B.exists(s) return topo.neighbors[s] ~= nil end

--- Grid coordinates of a space (x = column from 1, y = row from 1); nil on a graph.
function B.xy(s)
  local p = topo.xy[s]
  if not p then
    check_space(s, "board.xy")
    return nil
  end
  return p[1], p[2]
end

--- The space at grid coordinates, or nil off the board (coordinates are not names).
function B.space_at(x, y)
  if type(x) == "number" and type(y) == "number" then
    local s = topo.at[x * 1000 + y]
    -- (x * 1000 + y names a square for that square's own x and y only: 0, 1001 is not a1)
    if s ~= nil then
      local p = topo.xy[s]
      if p[1] == x and p[2] == y then return s end
    end
    return nil
  end
  error("board.space_at: x and y must be numbers, got " .. E.show(x) .. " and " .. E.show(y), 2)
end

function B.size() return topo.width, topo.height end

function B.neighbors(s)
  local n = topo.neighbors[s]
  if n == nil then check_space(s, "board.neighbors") end
  return E.copy_list(n)
end

function B.is_adjacent(a, b)
  local n = topo.neighbors[a]
  if n then
    for i = 1, #n do if n[i] == b then return true end end
  end
  -- names are checked only on the way to false, so a hit costs nothing more
  if n == nil then check_space(a, "board.is_adjacent") end
  if topo.neighbors[b] == nil then check_space(b, "board.is_adjacent") end
  return false
end

--- Number of steps between two spaces, counting only through adjacency
--- (math.huge between spaces that no path joins).
function B.distance(a, b)
  local p, q = topo.xy[a], topo.xy[b]
  if p and q and not topo.holes then   -- (a grid with spaces left out counts steps as a graph)
    local dx, dy = math.abs(p[1] - q[1]), math.abs(p[2] - q[2])
    if topo.eight then return math.max(dx, dy) end
    return dx + dy
  end
  check_space(a, "board.distance")
  check_space(b, "board.distance")
  local row = topo.dist[a]
  if not row then
    row = { [a] = 0 }
    local frontier = { a }
    while #frontier > 0 do
      local nxt = {}
      for _, s in ipairs(frontier) do
        for _, o in ipairs(topo.neighbors[s]) do
          if row[o] == nil then row[o] = row[s] + 1; nxt[#nxt + 1] = o end
        end
      end
      frontier = nxt
    end
    topo.dist[a] = row
  end
  return row[b] or math.huge
end

--- Spaces within n steps of s, not counting s itself.
function B.within(s, n)
  if topo.neighbors[s] == nil then check_space(s, "board.within") end
  local out = {}
  for _, o in ipairs(topo.list) do
    if o ~= s and B.distance(s, o) <= n then out[#out + 1] = o end
  end
  return out
end

--- The region a space belongs to (nil for a space in none).
function B.region(s)
  local r = topo.region[s]
  if r == nil then check_space(s, "board.region") end
  return r
end

function B.regions()
  local out = {}
  for name in pairs(topo.regions) do out[#out + 1] = name end
  table.sort(out)
  return out
end

local function check_region(name, fn)
  if topo.regions[name] == nil then E.no_such(fn, "region", name, B.regions(), 3) end
end

--- A region's definition from the board, read-only.
function B.region_info(name)
  local r = topo.regions[name]
  if r == nil then check_region(name, "board.region_info") end
  -- (the board's own table: a change would last into forks, bots' samples and later matches)
  local seen = topo.frozen_regions
  if seen == nil then
    seen = {}
    topo.frozen_regions = seen
  end
  local view = seen[name]
  if view == nil then
    view = E.freeze(r, "a region's definition")
    seen[name] = view
  end
  return view
end

--- The spaces of a region, in the board's order (a new list each call).
function B.spaces_in(region)
  check_region(region, "board.spaces_in")
  local lists = topo.region_lists    -- region -> its spaces, made once a board (rules ask often)
  if lists == nil then
    lists = {}
    for _, s in ipairs(topo.list) do
      local r = topo.region[s]
      if r ~= nil then
        local l = lists[r]
        if l == nil then
          l = {}
          lists[r] = l
        end
        l[#l + 1] = s
      end
    end
    topo.region_lists = lists
  end
  local l = lists[region]
  return l and E.copy_list(l) or {}
end

--- The straight directions of a grid, as {dx, dy} pairs.
function B.directions()
  local out = {}
  for i, d in ipairs(topo.dirs or {}) do out[i] = { d[1], d[2] } end
  return out
end

--- The card on a space, or nil.
function B.card_at(s)
  local id = occupied[s]
  if id then return E.state.cards[id] end
  if topo.neighbors[s] == nil then check_space(s, "board.card_at") end
  return nil
end

function B.is_empty(s)
  if occupied[s] ~= nil then return false end
  if topo.neighbors[s] == nil then check_space(s, "board.is_empty") end
  return true
end

--- Spaces from s in direction (dx, dy), up to n steps, stopping at the edge.
function B.ray(s, dx, dy, n)
  local p, out = topo.xy[s], {}
  if not p then
    check_space(s, "board.ray")
    return out
  end
  if dx == 0 and dy == 0 then error("board.ray: dx and dy are both 0: a ray must go somewhere", 2) end
  local x, y = p[1], p[2]
  for _ = 1, n do
    x, y = x + dx, y + dy
    local o = topo.at[x * 1000 + y]
    if not o then break end
    out[#out + 1] = o
  end
  return out
end

--- Cards reachable along straight lines from s within n spaces, where every space
--- between is empty (or holds a card that `passable(card)` lets through).
--- Returns a list of {card=, space=, distance=}.
function B.line_of_sight(s, n, passable)
  local out = {}
  local p = topo.xy[s]
  if not p then
    check_space(s, "board.line_of_sight")
    return out
  end
  local at, spaces, cards = topo.at, E.state.spaces, E.state.cards
  for _, d in ipairs(topo.dirs or {}) do
    local x, y = p[1], p[2]
    for i = 1, n do
      x, y = x + d[1], y + d[2]
      local o = at[x * 1000 + y]
      if not o then break end
      local id = spaces[o]
      if id then
        local c = cards[id]
        out[#out + 1] = { card = c, space = o, distance = i }
        if not (passable and passable(c)) then break end
      end
    end
  end
  return out
end

--- Every path of 1..steps moves from s. A path may continue through a space
--- when can_pass(space) and may end on it when can_stop(space); both default to
--- "empty", and s itself always counts as empty (its card is the one moving).
--- Returns a list of paths, each a list of spaces, in a stable order.
function B.paths(s, steps, can_pass, can_stop)
  if topo.neighbors[s] == nil then check_space(s, "board.paths") end
  can_pass = can_pass or B.is_empty
  can_stop = can_stop or B.is_empty
  local out = {}
  local function walk(at, path, left)
    if left == 0 then return end
    for _, o in ipairs(topo.neighbors[at]) do
      local stop, pass = o == s or can_stop(o), o == s or can_pass(o)
      if stop or pass then
        local p = E.copy(path)
        p[#p + 1] = o
        if stop then out[#out + 1] = p end
        if pass then walk(o, p, left - 1) end
      end
    end
  end
  walk(s, {}, steps)
  return out
end

--- The spaces reachable from s in 1..steps moves, each with a shortest path:
--- a list of {space=, path=} in a stable order. Moves go through spaces where
--- can_pass(space) and end where can_stop(space) (both default to "empty");
--- s counts as empty, and is included when a unit can step out and back.
function B.reach(s, steps, can_pass, can_stop)
  if topo.neighbors[s] == nil then check_space(s, "board.reach") end
  can_pass = can_pass or B.is_empty
  can_stop = can_stop or B.is_empty
  local neighbors = topo.neighbors
  local out, parent, frontier = {}, { [s] = false }, { s }
  local back = nil
  for _ = 1, steps do
    local nxt = {}
    for _, at in ipairs(frontier) do
      for _, o in ipairs(neighbors[at]) do
        if o == s then
          if back == nil and at ~= s then back = at end
        elseif parent[o] == nil and (can_pass(o) or can_stop(o)) then
          parent[o] = at
          if can_stop(o) then out[#out + 1] = o end
          if can_pass(o) then nxt[#nxt + 1] = o end
        end
      end
    end
    frontier = nxt
  end
  local result = {}
  for i, dest in ipairs(out) do
    local path, at = {}, dest
    while at ~= s do
      table.insert(path, 1, at)
      at = parent[at]
    end
    result[i] = { space = dest, path = path }
  end
  if back then
    local path, at = { s }, back
    while at ~= s do
      table.insert(path, 1, at)
      at = parent[at]
    end
    result[#result + 1] = { space = s, path = path }
  end
  return result
end
