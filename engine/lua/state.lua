-- A new match's state, card definitions, and views of the state for the host.
local E = ...
local getinfo = debug.getinfo   -- (kept: the host removes debug once the engine files have run)

E.sets = {}

--- Builds the empty state of a match: zones, counters, the board and the generator.
function E.new_state(seed, seats)
  local g = E.game
  local st = {
    game = g.id, seed = seed, players = {}, cards = {}, zones = {}, spaces = {},
    counters = { shared = {} }, turn = 0, round = 0, active = 1, over = false, vars = {},
  }
  for i, s in ipairs(seats) do
    st.players[i] = { seat = i, set = s.set, name = s.name or ("Player " .. i) }
    st.counters[i] = {}
  end
  E.in_play_keys = {}
  for _, name in ipairs(g.in_play) do
    E.in_play_keys[name] = true
    for i = 1, #seats do E.in_play_keys[name .. ":" .. i] = true end
  end
  for name, z in pairs(g.zones) do
    if z.scope == "player" then
      for i = 1, #seats do st.zones[name .. ":" .. i] = {} end
    else
      st.zones[name] = {}
    end
  end
  for name, c in pairs(g.counters) do
    if c.scope == "player" then
      for i = 1, #seats do st.counters[i][name] = c.start end
    else
      st.counters.shared[name] = c.start
    end
  end
  E.state = st
  E.rng_seed(seed)
  if g.board.type ~= "none" then
    E.build_board(g.board, #seats)
    E.board_order = E.board.spaces()
  else
    E.board_order = {}
  end
  if g.limits then
    for k, v in pairs(g.limits) do E.limits[k] = v end
  end
  return st
end

--- Adds a card definition; its Lua functions are compiled later by install_lua.
function E.add_def(d)
  d.tagset = {}
  for _, t in ipairs(d.tags or {}) do d.tagset[t] = true end
  d.hooks, d.modifiers, d.abilities = {}, {}, {}
  d.copies = d.copies or 1
  E.defs[d.id] = d
end

--- Compiles one inline function of a card and stores it at def[table][name].
function E.install_lua(card_id, tbl, name, src, chunkname)
  local ok, res = E.load_chunk(src, chunkname, "function")
  if not ok then return res end
  E.defs[card_id][tbl][name] = res
  local holders = E.with_fn[tbl][name]
  if not holders then
    holders = {}
    E.with_fn[tbl][name] = holders
  end
  holders[card_id] = true   -- the definitions that have this function
  return nil
end

--- Makes card sets and card definitions read-only once everything is loaded: a
--- script that writes to one stops with an error at its own line. E.plain_defs keeps
--- the tables behind the views, for the engine's own reads and copies. E.defs (the
--- same table, which the scripts' `defs` reads) then makes each definition's view the
--- first time it is read, and keeps it: a match never reads most of a game's cards
--- (the card sets no one plays), and a view of a definition costs a few hundred bytes
--- a table inside it.
function E.freeze_definitions()
  for id, st in next, E.sets do E.sets[id] = E.freeze(st, "a card set", true) end
  local plain, views = {}, E.defs
  for id, d in next, views do plain[id] = d end
  for id in next, plain do views[id] = nil end
  E.plain_defs = plain
  setmetatable(views, {
    __index = function(_, id)
      local d = plain[id]
      if d == nil then return nil end
      local view = E.freeze(d, "a card definition", true)
      rawset(views, id, view)
      return view
    end,
    __pairs = function()
      return function(_, k)
        local id = next(plain, k)
        if id ~= nil then return id, views[id] end
      end, views, nil
    end,
    __metatable = false,
  })
end

function E.sets_view()
  return E.protect(setmetatable({}, {
    __index = function(_, k) return E.sets[k] end,
    __newindex = function() error("card sets cannot be changed by scripts", 2) end,
    __pairs = function()   -- (listed as defs is: pairs(sets) listed nothing)
      return function(_, k)
        local id = next(E.sets, k)
        if id ~= nil then return id, E.sets[id] end
      end, nil, nil
    end,
    __metatable = false,
  }))
end

function E.snapshot_json()
  return E.to_json(E.state, "state")
end

--- "file:line: " where a function of a script is defined (engine/lua/checking.lua, loaded
--- after the host removes `debug`, asks here).
function E.defined_at(fn)
  local info = getinfo(fn, "S")
  return info.short_src .. ":" .. info.linedefined .. ": "
end

-- (zone key -> its zone's name and owner number, parsed once per key)
local zone_keys = setmetatable({}, { __index = function(t, key)
  local name, owner = key:match("^([^:]+):?(%d*)$")
  local parsed = { name, tonumber(owner) }
  t[key] = parsed
  return parsed
end })

--- A zone key's zone name and its player (nil for a shared zone): "hand:2" -> "hand", 2.
function E.zone_parts(key)
  local parsed = zone_keys[key]
  return parsed[1], parsed[2]
end

--- Whether seat p sees a zone's cards: z its definition (nil: out of the game), owner its
--- player (nil for a shared zone); p nil sees all.
local function zone_shown(z, owner, p)
  if p == nil then return true end
  if z == nil then return false end                       -- out of the game (scenario setups)
  return z.visibility == "public" or (z.visibility == "owner" and owner == p)
end
E.zone_shown = zone_shown

--- Whether player p sees the place a card lies in: the board, a zone p sees, or, for a
--- card under another, its host's place (a card attached under one in a hand is as
--- hidden as that card). A card in no zone: false.
local function place_shown(c, p)
  local cards, n = E.state.cards, 0
  while c.zone == "under" and n < 1000 do   -- (hosts never make a loop: cards.attach refuses one)
    local host = cards[c.host]
    if host == nil then return false end
    c, n = host, n + 1
  end
  local key = c.zone
  if key == "board" then return true end
  if key == nil or key == "under" then return false end
  local parsed = zone_keys[key]
  return zone_shown(E.game.zones[parsed[1]], parsed[2], p)
end

E.place_shown = place_shown

--- Whether a list holds x.
function E.in_list(list, x)
  for i = 1, #list do if list[i] == x then return true end end
  return false
end

--- Whether player p knows a card's face from a reveal, or as the owner of a face-down
--- card where the owner sees the place it lies (in play, in a zone they see: not one
--- of a face-down deck, which hides its cards from their owner too).
function E.seen_by(c, p)
  if p == nil then return true end
  if c.face_down and c.owner == p and (c.zone == nil or place_shown(c, p)) then return true end
  local seen = c.seen_by
  if seen then
    for _, q in ipairs(seen) do if q == p then return true end end
  end
  return false
end

--- Whether player p sees card c's face where it is now: on the board, in a zone the
--- player sees, or shown to them (a face-down card: its owner and whoever it was shown to).
function E.sees_face(c, p)
  if c.face_down then return E.seen_by(c, p) end
  if p == nil or c.zone == "board" or place_shown(c, p) then return true end
  return E.seen_by(c, p)
end

-- The card a card lies under, at the top (itself when under none); nil when a host is missing.
local function top_host(c)
  local cards, n = E.state.cards, 0
  while c.zone == "under" and n < 1000 do   -- (hosts never make a loop: cards.attach refuses one)
    c, n = cards[c.host], n + 1
    if c == nil then return nil end
  end
  return c
end

--- The place a card lies in for seat p's samples (engine/lua/sampling.lua deals a hidden
--- card among the hidden cards of places joined by moves p did not see): where p sees
--- the place (the board, a public zone, under a card there), the place and its owner,
--- as p sees whose it is ("board 1", "table:2 1"; owner 0: nobody's); else a player's
--- zones are that player's (their number), a shared zone is "zone NAME". nil: out of
--- the game.
function E.pool_place(c, p)
  local x = top_host(c)
  local key = x and x.zone
  if key == nil or key == "under" then return nil end
  if key ~= "board" then
    local where = E.zone_place(key)
    if where == nil then return nil end   -- (scenario.remove's zone: out of the game)
    if p == nil or not place_shown(x, p) then return where end
  end
  return key .. " " .. (c.owner or 0)
end

--- The place (E.pool_place) of a card in the zone of this key, for a seat that does not
--- see it; nil for a zone the game does not declare (out of the game).
function E.zone_place(key)
  local parsed = zone_keys[key]
  if E.game.zones[parsed[1]] == nil then return nil end
  return parsed[2] or ("zone " .. parsed[1])
end

--- Joins places a and b for seat p's samples, for good: a card p could not see moved
--- between them. Kept in state.mixed as {p, a, b}, one entry per join that made a
--- difference (state.mixed stays nil in a game where no card moves unseen between places).
function E.mix_places(p, a, b)
  if a == b or a == nil or b == nil then return end
  local st = E.state
  local list = st.mixed
  if list then
    local up = {}
    local function root(x)
      while up[x] ~= nil do x = up[x] end
      return x
    end
    for _, r in ipairs(list) do
      if r[1] == p then
        local ra, rb = root(r[2]), root(r[3])
        if ra ~= rb then up[rb] = ra end
      end
    end
    if root(a) == root(b) then return end
  else
    list = {}
    st.mixed = list
  end
  list[#list + 1] = { p, a, b }
end

--- A card hidden from seat p without moving, made in a place p does not see or turned
--- face down out of p's sight, has an identity p did not see it take (the rules may have
--- drawn it at random): its place joins its owner's zones' (0: nobody's) for p, as though
--- it came from there (a secret objective made straight into a zone of its own is dealt
--- among the others made for nobody). `seats`: the players to look at (default all).
function E.note_hidden(c, seats)
  local owner = c.owner or 0
  for _, p in ipairs(seats or E.players.list()) do
    if not E.sees_face(c, p) then E.mix_places(p, E.pool_place(c, p), owner) end
  end
end

-- The players for whom sees(c, p) is false, in order; nil when there are none.
local function seats_not(sees, c)
  local seats
  for p = 1, #E.state.players do
    if not sees(c, p) then
      seats = seats or {}
      seats[#seats + 1] = p
    end
  end
  return seats
end

-- The players who do not see card c's face, added to out as {c, seats, {seat -> its
-- place}} (out made when needed), and so for each card under it, which moves with it.
local function unseeing_of(c, out, depth)
  if c.face_down or c.zone ~= "board" then
    local seats = seats_not(E.sees_face, c)
    if seats then
      local places = {}
      for _, p in ipairs(seats) do places[p] = E.pool_place(c, p) end
      out = out or {}
      out[#out + 1] = { c, seats, places }
    end
  end
  if depth < 1000 then
    local cards = E.state.cards
    for _, id in ipairs(c.under) do out = unseeing_of(cards[id], out, depth + 1) end
  end
  return out
end

--- Before a card moves: for it and each card under it, the players who do not see its
--- face, as {card, seats, {seat -> place}} (E.pool_place); and in `blind`, the players
--- who do not see the place it leaves (`from`: the zone it, or the card it is under,
--- lies in; `from_place` that zone's place); nil when everyone sees all that (nobody
--- can learn from the move or lose track of it: no table is made then).
function E.unseeing(c)
  local out = unseeing_of(c, nil, 0)
  local x = top_host(c)
  if x and x.zone ~= "board" and x.zone ~= nil then
    local blind = seats_not(place_shown, c)
    if blind then
      out = out or {}
      out.blind, out.from, out.from_place = blind, x.zone, E.zone_place(x.zone)
    end
  end
  if out then   -- (who sees the place it leaves: E.note_mixed's new stand-ins go by places alone)
    local seen = {}
    for p = 1, #E.state.players do seen[p] = x ~= nil and place_shown(x, p) end
    out.from_seen = seen
  end
  return out
end

-- Player p no longer knows card c's face from a reveal (nor of those under it): out of
-- seen_by, and of seen_open (whom its owner saw it shown to).
local function forget(c, p, depth)
  for _, field in ipairs({ "seen_by", "seen_open" }) do
    local list = c[field]
    if list then
      for i = #list, 1, -1 do
        if list[i] == p then table.remove(list, i) end
      end
      if list[1] == nil then c[field] = nil end
    end
  end
  if depth < 1000 then
    local cards = E.state.cards
    for _, id in ipairs(c.under) do forget(cards[id], p, depth + 1) end
  end
end

--- After a card moved: a seat of `unseeing` (E.unseeing before the move) that still
--- does not see the face of the card, or of one under it, lost track of it, and its
--- samples join the places it moved between (E.mix_places). `tracked`: the move took
--- a card all can tell by its place in a pile (a draw takes the top), so a seat that
--- knew it goes on knowing it.
function E.note_mixed(unseeing, c, tracked)
  if unseeing == nil then return end
  local blind = unseeing.blind
  -- A face-down card takes a new stand-in when a seat cannot see both the place it left
  -- and the place it went to: decided by the places alone, which every seat knows, never
  -- by who knows the card (one stand-in serves every seat: had a reveal to one seat kept
  -- the card's stand-in, the others would see which card that seat was shown).
  local renew = false
  if c then
    local x, seen = top_host(c), unseeing.from_seen
    for p = 1, #E.state.players do
      if not (seen[p] and x ~= nil and place_shown(x, p)) then renew = true break end
    end
  end
  if blind and c and not tracked then
    -- a seat that sees neither the place the card left nor the one it went to cannot tell
    -- which card moved: it forgets what it knew of the card, and of every card left where
    -- it was (else the one it no longer finds there names the card: a secret pick from a
    -- hand the seat was shown), and its samples join the two places
    local cards, left = E.state.cards, unseeing.from and E.state.zones[unseeing.from]
    for _, p in ipairs(blind) do
      -- (face down where it went, p cannot tell it either: unless p is its owner, who sees
      -- its face there; a reveal's knowledge is what p loses here, so it does not count)
      if not place_shown(c, p) or (c.face_down and not (c.owner == p and place_shown(c, p))) then
        forget(c, p, 0)
        for _, id in ipairs(left or E.EMPTY) do
          local d = cards[id]
          if d.seen_by or d.under[1] ~= nil then forget(d, p, 0) end
        end
        E.mix_places(p, unseeing.from_place, E.pool_place(c, p))
      end
    end
  end
  for _, moved in ipairs(unseeing) do
    local card, places = moved[1], moved[3]
    for _, p in ipairs(moved[2]) do
      local to = E.pool_place(card, p)
      if places[p] ~= to and not E.sees_face(card, p) then
        -- (from no place, a card made for the move: as one made there, E.note_hidden)
        E.mix_places(p, places[p] == nil and (card.owner or 0) or places[p], to)
      end
    end
  end
  if renew and c then
    local function again(x, depth)   -- (and of the face-down cards under it, which moved with it)
      if x.face_down then
        x.down_ref = nil
        x.down_ref = E.new_stand_in()
      end
      if depth < 1000 then
        for _, id in ipairs(x.under) do again(E.state.cards[id], depth + 1) end
      end
    end
    again(c, 0)
  end
end

--- zones.lose_track: each seat that sees neither zone (keys ka and kb, the same for one)
--- forgets what it was shown of their cards, and its samples join their places, as
--- after a card it could not see moved between them (E.note_mixed).
function E.lose_track(ka, kb)
  local zones, cards = E.state.zones, E.state.cards
  local a, b = zone_keys[ka], zone_keys[kb]
  local za, zb = E.game.zones[a[1]], E.game.zones[b[1]]
  for p = 1, #E.state.players do
    if not zone_shown(za, a[2], p) and not zone_shown(zb, b[2], p) then
      for _, key in ipairs(ka == kb and { ka } or { ka, kb }) do
        for _, id in ipairs(zones[key]) do
          local c = cards[id]
          if c.seen_by or c.under[1] ~= nil then forget(c, p, 0) end
        end
      end
      E.mix_places(p, E.zone_place(ka), E.zone_place(kb))
    end
  end
end

--- After a card moved: those of `unseeing` (E.unseeing before the move) who see the face
--- of the card, or of one under it, now have learned it (a card handed from one hand to
--- another, a face-up card under a face-down one put on the table), which stops their
--- fair undo there (a note for them only); the others lost track of it (E.note_mixed).
function E.note_learned(c, unseeing)
  if unseeing == nil then return end
  E.note_mixed(unseeing, c)
  local seats, has = nil, {}
  for _, pair in ipairs(unseeing) do
    for _, p in ipairs(pair[2]) do
      if not has[p] and E.sees_face(pair[1], p) then
        has[p] = true
        seats = seats or {}
        seats[#seats + 1] = p
      end
    end
  end
  if seats then
    table.sort(seats)
    E.note("reveal", { zone = c.zone, card = c }, seats)
  end
end

-- What the others see of a face-down card: that it is there, and where (owner,
-- controller, zone, space, host, under and mark; made in one constructor, as views
-- are built for every evaluation a searching bot makes).
local function face_down_back(c)
  return { face_down = true, owner = c.owner, controller = c.controller, zone = c.zone, space = c.space,
           host = c.host, under = c.under, mark = c.mark }
end

-- The refusal of a view of a state that keeps a card whole (E.card_kept, engine/lua/checking.lua,
-- which the host loads before it asks for a view), or nothing.
local function refuse_kept()
  local kept, id = E.card_kept()
  if kept then
    error(kept .. " holds card " .. id .. " itself, and a seat's view holds what it is kept in whole: the card " ..
          "would be shown to every seat, face and all; keep in the state only what every seat may know of it " ..
          "(its id is no secret either: ids follow the order cards were made in)", 0)
  end
end

--- What player p may see (p nil: everything), as a table that shares the
--- state's own subtables: encode it, never hand it to a script. Every zone is
--- {count=n}, with cards={ids, bottom to top} when p may see them; a secret zone
--- is left out. A face-down card shows only where it is, unless p may see it.
local function view_table(p)
  local st = E.state
  local v = E.copy(st)
  v.rng = nil
  v.seed = nil
  v.mixed = nil   -- (what each seat lost track of: the bots' samples')
  v.turned_down = nil   -- (it counts turns face down in hidden places too)
  v.zones, v.cards = {}, {}
  local visible = {}
  local zones = E.game.zones
  -- (next, not pairs, here and below: the state's own entries, whatever a script's metatable says)
  for key, ids in next, st.zones do
    local parsed = zone_keys[key]
    local z = zones[parsed[1]]
    if zone_shown(z, parsed[2], p) then
      v.zones[key] = { count = #ids, cards = E.copy(ids) }
      for _, id in ipairs(ids) do visible[id] = true end
    elseif z ~= nil and z.visibility ~= "secret" then
      v.zones[key] = { count = #ids }
    end
  end
  local alias = {}   -- real id -> stand-in, for face-down cards p cannot see
  local stand_ins, last, in_order = {}, 0, true
  for id, c in next, st.cards do
    local where = c.zone == "board" or visible[id] or (c.zone == "under" and place_shown(c, p))
    if (where or (c.seen_by and E.seen_by(c, p))) then
      if c.face_down and not E.seen_by(c, p) then
        local back = face_down_back(c)
        alias[id] = c.down_ref and ("?" .. c.down_ref) or E.hidden_id(id)
        back.id = alias[id]
        c = back
        stand_ins[#stand_ins + 1] = c
      else
        if id < last then in_order = false end
        last = id
        if (c.seen_by or c.seen_open) and p ~= nil then
          -- (whom else it was shown to is its owner's to know, for those it saw it shown to,
          -- seeing which card it was (seen_open): the log says only "a card")
          local seen
          if c.owner == p then
            for _, q in ipairs(c.seen_by or E.EMPTY) do
              if q == p or E.in_list(c.seen_open or E.EMPTY, q) then
                seen = seen or {}
                seen[#seen + 1] = q
              end
            end
          elseif E.seen_by(c, p) then
            seen = { p }
          end
          c = E.copy(c)
          c.seen_by, c.seen_open = seen, nil
        end
        v.cards[#v.cards + 1] = c
      end
    end
  end
  if next(alias) then
    -- the stand-ins replace the real ids wherever the view names a card
    local function swap_ids(ids)
      local out = {}
      for i, id in ipairs(ids) do out[i] = alias[id] or id end
      return out
    end
    for _, z in next, v.zones do
      local ids = z.cards   -- (the view's own copy: swapped in place)
      if ids then
        for i = 1, #ids do
          local a = alias[ids[i]]
          if a then ids[i] = a end
        end
      end
    end
    local spaces = {}
    for s, id in next, st.spaces do spaces[s] = alias[id] or id end
    v.spaces = spaces
    for _, list in ipairs({ v.cards, stand_ins }) do
      for i, c in ipairs(list) do
        if (c.host and alias[c.host]) or (c.under and #c.under > 0) then
          local copy = E.copy(c)
          copy.host = alias[c.host] or c.host
          copy.under = swap_ids(c.under or {})
          list[i] = copy
        end
      end
    end
  end
  -- real ids in order (pairs over the cards' array gives them so), then stand-ins
  if not in_order then table.sort(v.cards, function(a, b) return a.id < b.id end) end
  if #stand_ins > 0 then
    table.sort(stand_ins, function(a, b) return a.id < b.id end)
    table.move(stand_ins, 1, #stand_ins, #v.cards + 1, v.cards)
  end
  return v
end

-- The view, built under the budget: a script's metatable on a table of the state would
-- otherwise run its code (an __index, say) outside any budget, from the host.
local function guarded_view(p)
  local ok, v = E.run_guarded(view_table, p)
  if not ok then error(v, 0) end
  return v
end

--- Seat p's view as JSON (a sample compares its views with the match's by it).
function E.view_json(p)
  return E.to_json(guarded_view(p), "state")
end

--- Seat p's view for the host: its screens, the console (refused when the state keeps a
--- card whole: E.card_kept; a bot's evaluation and samples are spared the walk).
function E.view(p)
  local ok, err = E.run_guarded(refuse_kept)
  if not ok then error(err, 0) end
  return E.view_json(p)
end

--- A deep copy of plain data (functions dropped), for code that must not reach the original.
--- The host runs it outside any budget, so it counts what it copies, as the encoder
--- does (a few shared tables nested can stand for 2^40 values).
local copy_left = 0
local function plain_copy(t, depth)
  if depth > 32 then error("cannot copy the data: it is nested more than 32 deep (a table inside itself?)", 0) end
  local out = {}
  for k, v in next, t do
    copy_left = copy_left - 1
    if copy_left < 0 then
      error(string.format("cannot copy the data: it holds more than %d values (a table referenced " ..
                          "from many places counts each time)", E.MAX_JSON_VALUES), 0)
    end
    local tv = type(v)
    if tv == "table" then out[k] = plain_copy(v, depth + 1)
    elseif tv ~= "function" then out[k] = v end
  end
  return out
end

local function copy_of(t)
  copy_left = E.MAX_JSON_VALUES
  return plain_copy(t, 0)
end

-- Board functions that read only the board's shape, never what stands on it.
local SHAPE_ONLY = { card_at = false, is_empty = false, line_of_sight = false, paths = false, reach = false }

--- Runs console code (compiled by the host) on a throwaway copy of what player p
--- may see: `view` (that copy), `defs` (card definitions as data), `options` (the
--- game's options), the board's shape, and the safe libraries. No engine function that reads hidden state or
--- draws a random number is there, and nothing it does reaches the match.
-- An environment with the safe libraries (and `keep`'s engine tables), the board's
-- shape, and no engine function that reads hidden state, draws a random number or
-- changes the match.
local function view_only_env(keep)
  local env = E.new_env()
  for k, v in next, env do
    if type(v) == "table" and not keep[k] then env[k] = nil end
  end
  for _, k in ipairs({ "choose", "emit", "defer", "on", "stat", "add_modifier", "win", "end_game", "say", "describe", "print" }) do
    env[k] = nil
  end
  local board = {}
  for k, fn in next, E.board do
    if SHAPE_ONLY[k] == nil and type(fn) == "function" then board[k] = fn end
  end
  env.board = board
  env._G = env
  return env
end

-- A throwaway copy of the definitions or the options that, as the rules' own, says so when
-- asked for a card or an option the game has not (not a quiet nil). A card whose face the
-- seat cannot see has no def in its view: defs[nil] is nil.
local function strict_copy(t, name, what, names)
  return setmetatable(copy_of(t), { __index = function(_, k)
    if type(k) == "string" then E.no_such(name, what, k, names()) end
  end })
end

local function option_names()
  local out = {}
  for k in next, E.game.options do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- stat(card, name) where a script reads seat p's view (an evaluation, the seat's `lua`
-- command): the card's stat as p knows it (E.stat_seen: its modifiers, but not those of
-- cards whose face p does not see). card: one of the view's cards, or its id. nil for a
-- card whose face p does not see (a stand-in's id, a card in another's hand) and for a
-- stat the card has not; a name that is no stat of the game is an error, as in the rules.
local function seen_stat(p, c, name)
  local id = c
  if type(c) == "table" then id = c.id end
  E.check_stat_name(name, 3)
  if math.type(id) ~= "integer" and type(id) ~= "string" then
    error("stat: expected a card of the view or its id, got " .. E.show(c), 3)
  end
  local card = math.type(id) == "integer" and E.state.cards[id]
  if not card or not E.sees_face(card, p) then return nil end
  return E.stat_seen(p, card, name)
end

local function with_seen_stat(env, seat)
  env.stat = function(c, name)
    local p = seat()
    if p == nil then   -- (fits, or the file's top level: no seat's view, so no card is known)
      error("stat: only while evaluate(view, seat) runs: it reads a card as that seat knows it", 2)
    end
    local v = seen_stat(p, c, name)   -- (no tail call: its errors name the script's line)
    return v
  end
  return env
end

function E.eval_view(bc, chunkname, p, line)
  local ok, err = E.run_guarded(refuse_kept)
  if not ok then error(err, 0) end
  local env = view_only_env({ string = true, table = true, math = true, utf8 = true, sets = true })
  with_seen_stat(env, function() return p end)
  env.view = copy_of(guarded_view(p))
  env.seat = p   -- (whose view it is: a toolbar's "your ...")
  env.defs = strict_copy(E.plain_defs, "defs", "card", E.card_names)
  env.options = strict_copy(E.game.options, "options", "option", option_names)   -- (the options are no secret)
  return E.eval(bc, chunkname, env, line)
end

-------------------------------------------------------------------------------
-- For bots: the evaluation of a position from one seat's view, and a redeal of
-- what a seat cannot see, so that a bot searches worlds its view allows.
-------------------------------------------------------------------------------

E.evaluator = nil   -- the game's evaluate(view, seat), when game.yaml names a file for it
E.fits = nil        -- the same file's fits(mark, def), when it defines one (see E.redeal)

-- What an evaluation may use besides the view: the safe libraries, card
-- definitions and card sets (read-only; deck lists are public, as the samples of
-- E.redeal assume: each owner's hidden cards are the rest of their list), the
-- game's options and the board's shape.
local judging = nil   -- the seat whose evaluation runs (E.evaluate): stat() there is as it knows it

local function evaluation_env()   -- (defs and options: read-only and strict, as the rules' own)
  local env = view_only_env({ string = true, table = true, math = true, utf8 = true, sets = true })
  with_seen_stat(env, function() return judging end)
  env.board = E.freeze(env.board, "the board's shape")
  env.defs = E.defs_view(true)
  env.options = E.options_view(true)
  return env
end

E.evaluation_env = evaluation_env   -- (and `summon check` reads what it holds)

--- Loads the file that defines evaluate(view, seat) (compiled by the host);
--- returns nil, or the problem as "file:line: message".
function E.load_evaluator(bc, chunkname)
  local env = evaluation_env()
  local fn, err = E.load_compiled(bc, chunkname, env)
  if not fn then return err end
  local ok, res = E.run_guarded(fn)
  if not ok then return res end
  if type(rawget(env, "evaluate")) ~= "function" then
    return chunkname .. ":1: this file must define a function evaluate(view, seat)"
  end
  E.evaluator = rawget(env, "evaluate")
  local fits = rawget(env, "fits")
  if fits ~= nil and type(fits) ~= "function" then
    return chunkname .. ":1: fits must be a function fits(mark, def), not " .. type(fits)
  end
  E.fits = fits
  return nil
end

-- Without a game's own evaluation: the seat's share of the cards in play, against
-- an even share (0), scaled so that holding every card in play is 1.
local function generic_evaluate(view, seat)
  local mine, all = 0, 0
  for _, c in ipairs(view.cards) do
    if c.zone == "board" or E.in_play_keys[c.zone] then
      all = all + 1
      if c.controller == seat then mine = mine + 1 end
    end
  end
  local n = #view.players
  if all == 0 or n < 2 then return 0 end
  return (mine / all - 1 / n) / (1 - 1 / n)
end

--- How good the position is for seat p, as p sees it: from -1 (lost) to 1 (won).
--- The game's evaluate gets a copy of p's view (throwaway: the view itself, which
--- shares tables with the state, for a match about to be dropped: a bot's sample);
--- a result past -1..1 is cut to it.
function E.evaluate(p, throwaway)
  local fn = E.evaluator or generic_evaluate
  local ok, res = E.run_guarded(function()
    local view = view_table(p)
    judging = p
    return fn(throwaway and view or copy_of(view), p)
  end)
  judging = nil
  if not ok then error(res, 0) end
  if math.type(res) == nil or res ~= res then
    -- (named by the line the function starts at; NaN spelt one way on every machine)
    local where = ""
    if E.evaluator then
      local info = getinfo(E.evaluator, "S")
      where = info.short_src .. ":" .. info.linedefined .. ": "
    end
    error(where .. "evaluate(view, seat) must return a number from -1 to 1, not " ..
          (res ~= res and "nan" or E.show(res)), 0)
  end
  if res > 1 then return 1.0 elseif res < -1 then return -1.0 end
  return res + 0.0
end

