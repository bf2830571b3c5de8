-- Cards and pieces, zones, tokens, counters and dice.
local E = ...

local C, Z, T, K, D, P = {}, {}, {}, {}, {}, {}
local type = type
E.cards, E.zones, E.tokens, E.counters, E.dice, E.players = C, Z, T, K, D, P

local function fail(msg) error(msg, 3) end

-------------------------------------------------------------------------------
-- Players
-------------------------------------------------------------------------------
local function no_player(fn, p, level)
  error(fn .. ": no player " .. E.show(p) .. " (players are 1 to " .. #E.state.players .. ")", level + 1)
end

local function check_player(p, fn)
  if E.state.players[p] == nil then no_player(fn, p, 3) end
end
E.check_player = check_player

function P.count() return #E.state.players end

function P.list()
  local out = {}
  for i = 1, #E.state.players do out[i] = i end
  return out
end

--- The player after p in seat order.
function P.next(p)
  local n = #E.state.players
  if E.state.players[p] == nil then check_player(p, "players.next") end
  return p % n + 1
end

function P.info(p)
  local info = E.state.players[p]
  if info == nil then check_player(p, "players.info") end
  return info
end

--- Player p learned something the rules showed them alone (a look at empty squares, a
--- count), which no card came into their sight for: their fair undo stops here.
function P.learned(p, what)
  E.not_in_modifier("players.learned")   -- (a modifier runs whenever a stat is read, by any seat)
  if E.state.players[p] == nil then check_player(p, "players.learned") end
  if what ~= nil and type(what) ~= "string" then
    error("players.learned: what is a few words naming what they learned, not " .. E.show(what), 2)
  end
  E.note(what and E.clean_text(what) or "look", nil, { p }, true)
end

--- Players in seat order starting from p.
local from_cache = {}
function P.from(p)
  local out = from_cache[p]
  if not out then
    check_player(p, "players.from")
    out = {}
    local n = #E.state.players
    for i = 0, n - 1 do out[#out + 1] = (p - 1 + i) % n + 1 end
    from_cache[p] = out
  end
  return E.copy_list(out)
end

-------------------------------------------------------------------------------
-- Subject first: a player's own zone or counter is named (p, name, ...), a
-- shared one (scope: shared in game.yaml) by its name alone: (name, ...).
-------------------------------------------------------------------------------
local OLD_ORDER = " (the argument order changed in 0.2.0, see CHANGELOG.md)"

local sorted_names = {}   -- "zones" / "counters" / "dice" -> sorted declared names
local function names_of(kind)
  local out = sorted_names[kind]
  if not out then
    out = {}
    for name in pairs(E.game[kind]) do out[#out + 1] = name end
    table.sort(out)
    sorted_names[kind] = out
  end
  return out
end

function E.zone_names() return E.copy_list(names_of("zones")) end

-- How one function names its subject, for messages: spec.fn is its name, spec.what
-- "zone" or "counter", spec.kind the declarations' table in E.game, spec.pre the
-- arguments before the subject and spec.post those after the name (as text), and
-- spec.rest how many arguments follow the name.
local function spec(fn, what, pre, post, rest)
  return { fn = fn, what = what, kind = what .. "s", pre = pre, post = post, rest = rest }
end

local function call_text(sp, name, with_player)
  return sp.fn .. "(" .. sp.pre .. (with_player and "p, " or "") .. "'" .. name .. "'" .. sp.post .. ")"
end

--- Reads subject-first arguments a, b, c, d: returns the player (nil for a shared
--- zone or counter), the name, its declaration and the two arguments after the name.
--- Unknown names, a missing or unknown player, a player for a shared one and
--- calls in the order before 0.2.0 raise errors that say the right call, blaming
--- the caller of the API function (up: how many engine functions lie between).
local function subject(sp, a, b, c, d, up)
  local L = 3 + (up or 0)
  local p, name, x, y
  if type(a) == "string" then
    name, x, y = a, b, c
  else
    p, name, x, y = a, b, c, d
  end
  local decl = E.game[sp.kind][name]
  if decl == nil then
    if p == nil and type(b) == "string" and E.game[sp.kind][b] ~= nil then
      -- a string where the player goes: ('hand', 'discard') or similar
      error(sp.fn .. ": " .. E.show(a) .. " is not a player; " .. call_text(sp, b, true), L)
    end
    E.no_such(sp.fn, sp.what, name, names_of(sp.kind), L)
  end
  if decl.scope == "player" then
    if p == nil then
      if type(a) == "string" then
        -- (the order before 0.2.0 put the player after the name, or left it out for the
        -- owner's zone (cards.create, cards.to_zone): else the player was just left out)
        local old = math.type(b) == "integer" or sp.owners
        error(sp.fn .. ": '" .. name .. "' is a per-player " .. sp.what .. ": " .. call_text(sp, name, true) ..
              (old and OLD_ORDER or ""), L)
      end
      no_player(sp.fn, p, L)
    end
    if E.state.players[p] == nil then no_player(sp.fn, p, L) end
  else
    if p ~= nil then
      error(sp.fn .. ": '" .. name .. "' is a shared " .. sp.what .. ", so it takes no player: " ..
            call_text(sp, name, false), L)
    end
    -- the shared form ends after its own arguments: one more is a call in the old order
    local extra
    if sp.rest == 0 then extra = b elseif sp.rest == 1 then extra = c else extra = d end
    if extra ~= nil then
      error(sp.fn .. ": too many arguments for the shared " .. sp.what .. " '" .. name .. "': " ..
            call_text(sp, name, false) .. OLD_ORDER, L)
    end
  end
  return p, name, decl, x, y
end
E.subject, E.subject_spec = subject, spec

-------------------------------------------------------------------------------
-- Zones: ordered lists of card ids; the top of a zone is its last element.
-------------------------------------------------------------------------------
local key_cache = {}   -- zone name -> player -> "name:p"

local function zone_key(name, p)
  if p == nil then return name end
  local by_p = key_cache[name]
  if by_p == nil then
    by_p = {}
    key_cache[name] = by_p
  end
  local key = by_p[p]
  if key == nil then
    key = name .. ":" .. p
    by_p[p] = key
  end
  return key
end
E.zone_key = zone_key

local S_IDS = spec("zones.ids", "zone", "", "", 0)
local S_CARDS = spec("zones.cards", "zone", "", "", 0)
local S_COUNT = spec("zones.count", "zone", "", "", 0)
local S_TOP = spec("zones.top", "zone", "", "", 0)
local S_SHUFFLE = spec("zones.shuffle", "zone", "", "", 0)

--- Files a checked lookup in a cache: by_player[p][name] = value, or shared[name] when p is nil.
local function remember(by_player, shared, p, name, value)
  if p == nil then
    shared[name] = value
    return
  end
  local t = by_player[p]
  if t == nil then
    t = {}
    by_player[p] = t
  end
  t[name] = value
end

-- Zones already named well, so a repeated call skips the checks: player_keys[p][name]
-- is the key of player p's zone, shared_keys[name] that of a shared zone.
local player_keys, shared_keys = {}, {}

local function zone_list(sp, a, b)
  local known = player_keys[a]
  local key = known and known[b]
  if key == nil and b == nil then key = shared_keys[a] end
  if key == nil then
    local p, name = subject(sp, a, b, nil, nil, 1)
    key = zone_key(name, p)
    remember(player_keys, shared_keys, p, name, key)
  end
  return E.state.zones[key]
end

--- Card ids of a zone, bottom to top: zones.ids(p, name) or zones.ids(name).
function Z.ids(a, b) return E.copy(zone_list(S_IDS, a, b)) end

--- Cards of a zone, bottom to top: zones.cards(p, name) or zones.cards(name).
function Z.cards(a, b)
  local out, cards = {}, E.state.cards
  local l = zone_list(S_CARDS, a, b)
  for i = 1, #l do out[i] = cards[l[i]] end
  return out
end

function Z.count(a, b) return #zone_list(S_COUNT, a, b) end

--- The top card of a zone, or nil when it is empty.
function Z.top(a, b)
  local l = zone_list(S_TOP, a, b)
  return l[#l] and E.state.cards[l[#l]] or nil
end

--- Shuffles a zone; cards revealed before are unknown again once shuffled in.
function Z.shuffle(a, b)
  local p, name = subject(S_SHUFFLE, a, b)
  local key = zone_key(name, p)
  local l = E.state.zones[key]
  E.shuffle(l)
  local cards = E.state.cards
  local function unknown(c, depth)   -- (and the cards under it, which go where it goes)
    c.seen_by, c.seen_open = nil, nil
    if c.face_down then   -- (in a zone others see, its stand-in would follow it through the shuffle)
      c.down_ref, c.mark = nil, nil   -- (and so would its mark)
      c.down_ref = E.new_stand_in()
    end
    if depth < 1000 then
      for _, id in ipairs(c.under) do unknown(cards[id], depth + 1) end
    end
  end
  for _, id in ipairs(l) do unknown(cards[id], 0) end
  E.note("shuffle", { zone = key })
end

--- The key of a zone for zones.draw (fn: or another function of its shape, whose call
--- is `form`): p applies to a per-player zone, a shared one ignores it.
local function draw_key(name, p, shared_form, old_shape, fn, form)
  fn = fn or "zones.draw"
  local zd = E.game.zones[name]
  if zd == nil then E.no_such(fn, "zone", name, names_of("zones"), 3) end
  if zd.scope ~= "player" then return name end
  if p == nil then
    if shared_form then
      error(fn .. ": '" .. name .. "' is a per-player zone: " .. (form or "zones.draw(p, from, to, n)") ..
            (old_shape and OLD_ORDER or ""), 3)
    end
    no_player(fn, p, 3)
  end
  if E.state.players[p] == nil then no_player(fn, p, 3) end
  return zone_key(name, p)
end

--- Moves up to n cards (default 1) from the top of one zone to the top of another,
--- one at a time: zones.draw(p, from, to, n) where either zone may be p's own or
--- shared, or zones.draw(from, to, n) between two shared zones. A player's own
--- zone named in `to` may belong to another player: zones.draw(p, from, to, n, to_p).
--- Returns the cards moved (fewer when the source runs out).
function Z.draw(a, b, c, d, e)
  local p, from, to, n, to_p
  local shared_form = type(a) == "string"
  if shared_form then
    from, to, n = a, b, c
    if d ~= nil then
      error("zones.draw: too many arguments: zones.draw(p, from, to, n), or zones.draw(from, to, n) " ..
            "between shared zones" .. OLD_ORDER, 2)
    end
  else
    p, from, to, n, to_p = a, b, c, d, e
  end
  -- (before 0.2.0: zones.draw(from, to, p, n), a player third)
  local old_shape = shared_form and math.type(c) == "integer" and E.state.players[c] ~= nil
  local fk = draw_key(from, p, shared_form, old_shape)
  local tk = draw_key(to, to_p or p, shared_form, old_shape)
  if p ~= nil and fk == from and tk == to then
    error("zones.draw: '" .. from .. "' and '" .. to .. "' are shared zones, so it takes no player: " ..
          "zones.draw('" .. from .. "', '" .. to .. "', n)", 2)
  end
  n = n or 1
  if math.type(n) ~= "integer" or n < 0 then
    error("zones.draw: the number of cards must be a whole number, 0 or more, got " .. E.show(n), 2)
  end
  local moved = {}
  E.note("draw", { zone = from })
  local src, cards = E.state.zones[fk], E.state.cards
  for _ = 1, n do
    local id = src[#src]
    if not id then break end
    local card = cards[id]
    E.cards.to_zone_key(card, tk, true)
    moved[#moved + 1] = card
  end
  return moved
end

--- The seats that see neither zone lose track of their cards, as though a card they
--- could not see had moved between them (or within the one zone): zones.lose_track(p, a,
--- b, b_p) where either may be p's own or shared (b_p: b's player, when not p), or
--- zones.lose_track(a, b) between shared zones; b left out: within zone a.
function Z.lose_track(a, b, c, d)
  local FORM = "zones.lose_track(p, a, b, b_p)"
  local p, za, zb, zb_p
  local shared_form = type(a) == "string"
  if shared_form then
    za, zb = a, b
    if c ~= nil then
      error("zones.lose_track: too many arguments: " .. FORM .. ", or zones.lose_track(a, b) between " ..
            "shared zones", 2)
    end
  else
    p, za, zb, zb_p = a, b, c, d
  end
  local ka = draw_key(za, p, shared_form, false, "zones.lose_track", FORM)
  local kb = zb == nil and ka or draw_key(zb, zb_p or p, shared_form, false, "zones.lose_track", FORM)
  if p ~= nil and ka == za and kb == (zb or za) then
    error("zones.lose_track: no zone named is a player's, so it takes no player: zones.lose_track('" ..
          za .. "'" .. (zb and (", '" .. zb .. "'") or "") .. ")", 2)
  end
  E.lose_track(ka, kb)
end

-------------------------------------------------------------------------------
-- Cards
-------------------------------------------------------------------------------
-- Bumped by every change of which cards are in play (or of their board order),
-- so the lists of cards in play can be cached between changes.
E.version = 0

local function touch(key)
  if key == "board" or E.in_play_keys[key] then E.version = E.version + 1 end
end

--- A card argument (a card, or its id); up: engine functions between the API
--- function and this check.
local function card_arg(c, fn, up)
  local given = c
  if type(c) == "number" then c = E.state.cards[c] end
  if type(c) ~= "table" or E.state.cards[c.id] ~= c then
    error(fn .. ": expected a card or a card's id, got " .. E.show(given), 3 + (up or 0))
  end
  return c
end
E.card_arg = card_arg

--- The card with an id.
function C.get(id)
  local c = E.state.cards[id]
  if c == nil then
    error("cards.get: no card with id " .. E.show(id) .. " (ids run from 1 to " .. #E.state.cards .. ")", 2)
  end
  return c
end

local def_names = nil
local function card_names()
  if def_names == nil then
    def_names = {}
    for id in pairs(E.plain_defs or E.defs) do def_names[#def_names + 1] = id end
    table.sort(def_names)
  end
  return def_names
end
E.card_names = card_names

local tag_set, tags_known = {}, false   -- every tag some card definition has
local function check_tag(tag, fn)
  if not tags_known then
    tags_known = true
    for _, d in pairs(E.plain_defs or E.defs) do
      for t in pairs(d.tagset) do tag_set[t] = true end
    end
  end
  if not tag_set[tag] then
    local tags = {}
    for t in pairs(tag_set) do tags[#tags + 1] = t end
    table.sort(tags)
    E.no_such(fn, "tag", tag, tags, 3)
  end
end

--- The definition of a card (its YAML, with Lua functions), read-only.
function C.def(c)
  local d = type(c) == "table" and E.defs[c.def]
  if d then return d end
  return E.defs[card_arg(c, "cards.def").def]
end

--- Whether a card's definition has a tag (a tag no card has is an error: a typo).
function C.has_tag(c, tag)
  local d = type(c) == "table" and (E.plain_defs or E.defs)[c.def]   -- (hot: no more check unless this fails)
  if not d then d = E.defs[card_arg(c, "cards.has_tag").def] end
  if d.tagset[tag] then return true end
  if not tag_set[tag] then check_tag(tag, "cards.has_tag") end
  return false
end

local S_CREATE = spec("cards.create", "zone", "def, owner, ", "", 0)
S_CREATE.owners = true   -- (before 0.2.0, the zone alone was the owner's)

--- Creates a new card from a definition, owned and controlled by a player, in no
--- zone, or on top of a zone: cards.create(def, owner, p, zone) for a player's
--- own zone, cards.create(def, owner, zone) for a shared one.
function C.create(def_id, owner, a, b, c)
  local d = E.defs[def_id]
  if not d then E.no_such("cards.create", "card", def_id, card_names()) end
  if owner ~= nil and E.state.players[owner] == nil then no_player("cards.create", owner, 2) end
  local key
  if a ~= nil or b ~= nil then
    local p, name = subject(S_CREATE, a, b, c)
    key = zone_key(name, p)
  end
  local cards = E.state.cards
  local card = { id = #cards + 1, def = def_id, name = d.name, owner = owner,
                 controller = owner, tokens = E.EMPTY, under = E.EMPTY }
  cards[card.id] = card
  if key then
    card.zone = key
    touch(key)
    local l = E.state.zones[key]
    l[#l + 1] = card.id
    -- (made among its owner's cards, a deck of their own, it joins nothing: the usual case)
    if E.zone_place(key) ~= (owner or 0) then E.note_hidden(card) end
  end
  return card
end

local function remove_from_list(l, id)
  for i = #l, 1, -1 do
    if l[i] == id then table.remove(l, i); return true end
  end
  return false
end

--- Takes a card out of wherever it is (zone, board space or under a host).
local function lift(c)
  touch(c.zone)
  if c.space then
    E.state.spaces[c.space] = nil
    c.space = nil
  elseif c.host then
    remove_from_list(E.state.cards[c.host].under, c.id)
    c.host = nil
  elseif c.zone then
    remove_from_list(E.state.zones[c.zone], c.id)
  end
  c.zone = nil
  c.mark = nil
end

local S_TO_ZONE = spec("cards.to_zone", "zone", "c, ", "", 1)
S_TO_ZONE.owners = true

--- Moves a card to a zone: cards.to_zone(c, p, zone, where) for a player's own
--- zone, cards.to_zone(c, zone, where) for a shared one. where: "top" (default),
--- "bottom" or a 1-based position counted from the bottom. Returns the card.
function C.to_zone(c, a, b, w, x)
  c = card_arg(c, "cards.to_zone")
  local p, name, _, where = subject(S_TO_ZONE, a, b, w, x)
  if where ~= nil and where ~= "top" and where ~= "bottom" and math.type(where) ~= "integer" then
    fail("cards.to_zone: where must be \"top\", \"bottom\" or a position, got " .. E.show(where))
  end
  local key = zone_key(name, p)
  local l = E.state.zones[key]
  if type(where) == "number" then
    local last = #l + (c.zone == key and 0 or 1)   -- (the card's own place in it is free once it is lifted)
    if where < 1 or where > last then
      fail("cards.to_zone: position " .. where .. " is not in " .. key .. ": " .. (last == 1 and
           "it is empty, so 1 is the only one" or "it takes 1 (the bottom) to " .. last .. " (the top)"))
    end
  end
  local unseeing = E.unseeing(c)
  lift(c)
  if where == "bottom" then table.insert(l, 1, c.id)
  elseif type(where) == "number" then table.insert(l, where, c.id)
  else l[#l + 1] = c.id end
  c.zone = key
  touch(key)
  E.note_learned(c, unseeing)
  return c
end

--- Moves a card to a zone by its key ("hand:1"), creating unknown keys (engine use).
--- tracked: the card is the one all can tell by its place in the pile (a draw takes the
--- top), so whoever knew it goes on knowing it (E.note_mixed).
function C.to_zone_key(c, key, tracked)
  c = card_arg(c, "cards.to_zone_key")
  -- (who lost track of the card, as cards.to_zone says; nobody, when a face-up card nothing
  -- lies under goes to where its owner's cards are: a draw from its owner's deck)
  local here = c.zone and c.zone ~= "board" and c.zone ~= "under" and E.zone_place(c.zone)
  local unseeing
  if not (tracked and not c.face_down and c.under[1] == nil and here ~= nil and here == E.zone_place(key)
          and here == (c.owner or 0)) then
    unseeing = E.unseeing(c)
  end
  lift(c)
  local l = E.state.zones[key]
  if not l then
    l = {}
    E.state.zones[key] = l
  end
  l[#l + 1] = c.id
  c.zone = key
  touch(key)
  E.note_mixed(unseeing, c, tracked)
end

--- Puts a card on an empty board space (from anywhere, or from another space).
function C.place(c, s)
  c = card_arg(c, "cards.place")
  if not E.board.exists(s) then E.no_such("cards.place", "space", s, E.board_order) end
  local occupant = E.state.spaces[s]
  if occupant and occupant ~= c.id then
    fail("cards.place: " .. s .. " is taken by " .. E.state.cards[occupant].name)
  end
  local unseeing = E.unseeing(c)
  lift(c)
  c.zone = "board"
  c.space = s
  E.state.spaces[s] = c.id
  E.version = E.version + 1
  E.note_learned(c, unseeing)   -- (from a hand or a deck into everyone's sight)
  return c
end

--- Two cards on the board exchange spaces.
function C.swap(a, b)
  a, b = card_arg(a, "cards.swap"), card_arg(b, "cards.swap")
  local sa, sb = a.space, b.space
  if not (sa and sb) then fail("cards.swap: both cards must be on the board") end
  a.space, b.space = sb, sa
  E.version = E.version + 1
  E.state.spaces[sa], E.state.spaces[sb] = b.id, a.id
end

--- Puts a card under a host card; it travels with the host.
function C.attach(c, host)
  c, host = card_arg(c, "cards.attach"), card_arg(host, "cards.attach")
  local h = host
  while h do   -- (the host, and what it is under, in turn)
    if h == c then fail("cards.attach: " .. E.describe(c) .. " cannot go under itself, nor under a card under it") end
    h = h.host and E.state.cards[h.host]
  end
  local unseeing = E.unseeing(c)
  lift(c)
  c.zone = "under"
  c.host = host.id
  local under = host.under
  if under == E.EMPTY then under = {}; host.under = under end
  under[#under + 1] = c.id
  E.note_learned(c, unseeing)
end

function C.attached(host)
  host = card_arg(host, "cards.attached")
  local out = {}
  for i, id in ipairs(host.under) do out[i] = E.state.cards[id] end
  return out
end

local tmove = table.move
local cache_version, board_cache, play_cache = -1, nil, nil
-- kind -> name -> { version, cards in play whose definition has that function }
local fn_lists = { hooks = {}, modifiers = {}, abilities = {} }

--- Forgets the cached lists (a new state took the old one's place: a fork, a scenario).
function E.forget_caches()
  cache_version, board_cache, play_cache = -1, nil, nil
  fn_lists = { hooks = {}, modifiers = {}, abilities = {} }
end

E.match_part(function(m) m.version = E.version end, function(m)
  E.version = m.version
  E.forget_caches()
end)

local function refresh()
  if cache_version == E.version then return end
  cache_version = E.version
  local out, spaces, cards = {}, E.state.spaces, E.state.cards
  local order = E.board_order
  for i = 1, #order do
    local id = spaces[order[i]]
    if id then out[#out + 1] = cards[id] end
  end
  board_cache = out
  local all = tmove(out, 1, #out, 1, {})
  local zones = E.state.zones
  for _, name in ipairs(E.game.in_play) do
    local shared = zones[name]
    if shared then   -- a shared zone: its cards once
      for i = 1, #shared do all[#all + 1] = cards[shared[i]] end
    else
      for p = 1, #E.state.players do
        local ids = zones[name .. ":" .. p]
        if ids then
          for i = 1, #ids do all[#all + 1] = cards[ids[i]] end
        end
      end
    end
  end
  play_cache = all
end
local function filtered(list, filter)
  if not filter then return E.copy_list(list) end
  local out = {}
  for i = 1, #list do
    local c = list[i]
    if filter(c) then out[#out + 1] = c end
  end
  return out
end

--- Cards on the board, in board order, optionally filtered.
function C.on_board(filter)
  refresh()
  return filtered(board_cache, filter)
end

--- Cards in play: on the board, then in the zones the game declares in play.
function C.in_play(filter)
  refresh()
  return filtered(play_cache, filter)
end

--- Cards in play whose definition has a function in def[tbl][name] (cached; do not change).
--- E.with_fn[tbl][name] holds the ids of the definitions that have one (state.lua).
local NONE = setmetatable({}, { __newindex = function() error("read-only", 2) end })
E.with_fn = { hooks = {}, modifiers = {}, abilities = {} }

function E.in_play_with(tbl, name)
  local holders = E.with_fn[tbl][name]   -- def id -> true, for the definitions with this function
  if not holders then return NONE end
  refresh()
  local lists = fn_lists[tbl]
  local entry = lists[name]
  if entry == nil then
    entry = { -1, NONE }
    lists[name] = entry
  end
  if entry[1] ~= cache_version then
    -- in play order; only the lists asked for are rebuilt after a change
    local out = {}
    for i = 1, #play_cache do
      local c = play_cache[i]
      if holders[c.def] then out[#out + 1] = c end
    end
    entry[1], entry[2] = cache_version, out
  end
  return entry[2]
end

function C.is_on_board(c)
  if type(c) ~= "table" then c = card_arg(c, "cards.is_on_board") end   -- (an id; hot: a card is not checked)
  return c.space ~= nil
end

-------------------------------------------------------------------------------
-- Face-down cards and reveals. A face-down card shows its face to its owner only;
-- the others see that a face-down card is there. reveal(c, p) shows a card's face
-- to player p (nil: to everyone) wherever it is, until it is shuffled into a zone
-- or turned face down again. Views (engine/lua/state.lua) apply both.
-------------------------------------------------------------------------------
function C.is_face_down(c)
  return card_arg(c, "cards.is_face_down").face_down == true
end

--- Turns a card face down. The others know it by a stand-in id from now on (the nth
--- card turned face down in the match): a real id follows creation order and could name it.
--- in_sight: it is turned over where it lies, in sight of those who saw its face (a
--- card in play turned face down), so they still know which card it is: every player
--- when it lies on the board or in a public zone, the zone's owner in an owner's zone, and
--- whoever it was revealed to. Their views go on naming it, and their bots' samples
--- never deal it again.
function C.turn_face_down(c, in_sight)
  c = card_arg(c, "cards.turn_face_down")
  if in_sight ~= nil and type(in_sight) ~= "boolean" then
    fail("cards.turn_face_down: in_sight is true or false, got " .. E.show(in_sight) ..
         ": cards.turn_face_down(card, in_sight)")
  end
  local seen = nil
  if in_sight then
    if c.face_down then
      fail("cards.turn_face_down: " .. E.describe(c) .. " is already face down, so nobody saw its face: " ..
           "in_sight is for a face-up card")
    end
    seen = {}
    for _, q in ipairs(E.players.list()) do
      if E.sees_face(c, q) then seen[#seen + 1] = q end
    end
  end
  local saw = {}   -- (who saw its face, and turned away, lose track of it: E.note_hidden)
  for _, q in ipairs(E.players.list()) do
    if E.sees_face(c, q) then saw[#saw + 1] = q end
  end
  c.face_down, c.seen_by, c.down_ref, c.mark = true, seen, nil, nil
  -- (those who saw it turned over: its owner knows who they were where it saw that, of
  -- those who see its place; of those shown it before, those it saw shown it)
  local open
  if seen and c.owner and E.place_shown(c, c.owner) then
    for _, q in ipairs(seen) do
      if E.place_shown(c, q) or E.in_list(c.seen_open or E.EMPTY, q) then
        open = open or {}
        open[#open + 1] = q
      end
    end
  end
  c.seen_open = open
  c.down_ref = E.new_stand_in()
  E.note_hidden(c, saw)
end

--- Puts a public mark on a face-down card: what every player knows of it without seeing
--- its face (what was paid for it, say). Every view shows the mark with the card, and a
--- bot's sample deals the card only identities the game's fits(mark, def) accepts (a
--- function the bots' evaluation file may define). The mark goes when the card is
--- turned face up or face down again or leaves its place; mark must be a boolean, a
--- number, a string or a table of them (nil takes a mark off).
function C.mark(c, mark)
  c = card_arg(c, "cards.mark")
  if not c.face_down then
    fail("cards.mark: " .. E.describe(c) .. " is face up: only a face-down card takes a mark")
  end
  local function plain(v, depth)
    local t = type(v)
    if t == "table" then
      if depth > 8 then return "tables nested more than 8 deep" end
      for k, x in next, v do
        if type(k) ~= "string" and math.type(k) ~= "integer" then return "a key of type " .. type(k) end
        local why = plain(x, depth + 1)
        if why then return why end
      end
      return nil
    end
    if t == "boolean" or t == "string" or (t == "number" and v == v) then return nil end
    return t == "number" and "NaN" or ("a " .. t)
  end
  local why = mark ~= nil and plain(mark, 1)
  if why then fail("cards.mark: the mark must be plain data (booleans, numbers, strings, tables), not " .. why) end
  c.mark = type(mark) == "table" and E.deep_copy(mark) or mark
end

--- Turns a card face up: it shows as itself to whoever sees where it lies (everyone, on
--- the board or in a public zone; its owner, in a hand). cards.reveal shows a card to
--- players who do not see its zone. A reveal, so fair undo stops here.
function C.turn_face_up(c)
  c = card_arg(c, "cards.turn_face_up")
  if c.face_down then
    c.face_down, c.seen_by, c.seen_open, c.down_ref, c.mark = nil, nil, nil, nil, nil
    E.note("reveal", { zone = c.zone, card = c })
  end
end

--- Makes player p the card's owner, for good: a card taken from a shared pile becomes
--- the taker's. The owner is who sees the card face down. A bot's sample deals a hidden
--- card again among the places it moved between unseen (sampling.lua), so a card taken
--- from a shared pile may be dealt as one still in the pile: the others do not know
--- which was taken. A face-down card's new owner now knows its face (fair undo stops
--- there), and its old owner goes on knowing it if they knew it.
function C.set_owner(c, p)
  c = card_arg(c, "cards.set_owner")
  if p ~= nil and (math.type(p) ~= "integer" or E.state.players[p] == nil) then   -- (nil: nobody's)
    no_player("cards.set_owner", p, 2)
  end
  local old = c.owner
  if old == p then return end
  -- (its new owner saw none of them shown it, but knows its old owner knows it)
  c.seen_open = nil
  if c.face_down then
    local seen = c.seen_by or {}
    local known = E.in_list(seen, old)
    if not known and E.state.players[old] and E.seen_by(c, old) then seen[#seen + 1] = old; known = true end
    table.sort(seen)
    c.seen_by = seen[1] and seen or nil
    if known then c.seen_open = { old } end
    if p ~= nil and not E.seen_by(c, p) then E.note("reveal", { zone = c.zone, card = c }, { p }) end
  end
  if c.first_owner == nil then c.first_owner = old or 0 end   -- (0: it had no owner)
  local unseeing = E.unseeing(c)   -- (on the board, its place is its owner's: see E.pool_place)
  c.owner = p
  E.note_mixed(unseeing)
  if p == nil then   -- (back to a shared pile: nobody's, and nobody controls it)
    if c.controller == old then c.controller = nil end
  elseif c.controller == nil then
    c.controller = p   -- (a card nobody controlled: its new owner does)
  end
end

-- The line every seat reads of a reveal the rules did not word: who shows it, the player
-- whose zone it is in, or who controls it on the board; a card of a shared zone, the deck
-- everyone draws from say, is shown by nobody in particular.
local function reveal_line(c, p)
  local by, shared
  if c.zone == "board" then by = c.controller   -- (nil for a card nobody controls)
  elseif c.zone ~= "under" then
    by = select(2, E.zone_parts(c.zone))
    shared = by == nil and c.zone or nil
  end
  if p == nil then
    return by and string.format("Player %d reveals %s", by, c.name) or string.format("%s is revealed", c.name)
  elseif by and by ~= p then
    return string.format("Player %d shows player %d a card", by, p)
  elseif shared then
    return string.format("Player %d sees a card of %s", p, shared)
  end
  return string.format("Player %d sees a card%s", p, by == p and c.owner == p and " of their own" or "")
end

-- What player p reads of a card shown to them alone, in place of the others' line: which
-- card and where ("You see Duelist (player 2's hand)"); else a card gone before their next
-- screen (a hand lost in a duel) would never have shown.
local function shown_line(c, p)
  local where
  if c.zone == "board" then where = "on " .. tostring(c.space)
  elseif c.zone == "under" then where = "under a card"
  else
    local name, owner = E.zone_parts(c.zone)
    where = owner == nil and name or owner == p and ("your " .. name) or string.format("player %d's %s", owner, name)
  end
  return string.format("You see %s (%s)", c.name, where)
end

--- Shows a card's face to player p, or to everyone when p is nil.
function C.reveal(c, p, said)
  c = card_arg(c, "cards.reveal")
  if c.zone == nil then
    fail("cards.reveal: " .. E.describe(c) .. " is in no zone: only a card in the game can be revealed")
  end
  if p ~= nil and E.state.players[p] == nil then no_player("cards.reveal", p, 2) end
  if said ~= nil and said ~= false and type(said) ~= "string" then
    fail("cards.reveal: said is the text the log says instead of the engine's line, or false for none, not " ..
         E.show(said))
  end
  local seen, open = c.seen_by or {}, c.seen_open
  -- (its owner knows whom it is shown to where it sees the card, and so which card it is)
  local watched = c.owner ~= nil and (E.place_shown(c, c.owner) or p == nil or p == c.owner)
  local learned   -- (those who did not see its face: their fair undo stops here; the others saw it)
  for _, q in ipairs(p and { p } or E.players.list()) do
    if not E.sees_face(c, q) then
      learned = learned or {}
      learned[#learned + 1] = q
    end
  end
  for _, q in ipairs(p and { p } or E.players.list()) do
    if not E.in_list(seen, q) then seen[#seen + 1] = q end
    if watched and not E.in_list(open or E.EMPTY, q) then
      open = open or {}
      open[#open + 1] = q
    end
  end
  table.sort(seen)
  if open then table.sort(open) end
  c.seen_by, c.seen_open = seen, open
  if learned then E.note("reveal", { zone = c.zone, card = c }, learned) end
  if said == false then return end   -- (the rules say it, once for many cards)
  local line = said or reveal_line(c, p)   -- (said: the rules' own words, who looked)
  if p == nil then E.say(line) else E.say(shown_line(c, p), p, line) end
end

--- Whether player p sees a card's face where it lies now: face up on the board or in a
--- zone p sees, or shown to p (cards.reveal; a face-down card: its owner, and those who
--- saw it turned over in sight). p nil: a designer, who sees everything.
function C.is_seen_by(c, p)
  c = card_arg(c, "cards.is_seen_by")
  if p ~= nil and E.state.players[p] == nil then no_player("cards.is_seen_by", p, 2) end
  return E.sees_face(c, p)
end

--- Cards in play whose definition has a hook, modifier or ability of this name:
--- kind is "hooks", "modifiers" or "abilities".
local FN_NAMES = { hooks = { "hooks", "event" }, modifiers = { "stats", "stat" }, abilities = { "abilities", "ability" } }
local declared_fns = {}   -- kind -> set of the names the game declares

function C.in_play_with(kind, name)
  local set = declared_fns[kind]
  if set == nil then
    local names = FN_NAMES[kind]
    if names == nil then
      fail("cards.in_play_with: kind must be \"hooks\", \"modifiers\" or \"abilities\", got " .. E.show(kind))
    end
    set = {}
    for _, n in ipairs(E.game[names[1]] or {}) do set[n] = true end
    declared_fns[kind] = set
  end
  if not set[name] then
    E.no_such("cards.in_play_with", FN_NAMES[kind][2], name, E.game[FN_NAMES[kind][1]])
  end
  return E.copy(E.in_play_with(kind, name))
end

-------------------------------------------------------------------------------
-- Tokens: named counts on a card. add, remove and set return the new count.
-------------------------------------------------------------------------------
local function token_args(c, name, fn)
  c = card_arg(c, fn, 1)
  if type(name) ~= "string" then
    error(fn .. ": a token's name is a string, got " .. E.show(name) .. ": " .. fn .. "(card, name, ...)", 3)
  end
  return c
end

local function count_arg(n, fn)
  if math.type(n) ~= "integer" then
    error(fn .. ": the count must be an integer, got " .. E.show(n), 3)
  end
end

--- How many tokens of a name a card has (0 when none).
function T.get(c, name)
  if type(c) ~= "table" or type(name) ~= "string" or E.state.cards[c.id] ~= c then
    c = token_args(c, name, "tokens.get")
  end
  return c.tokens[name] or 0
end

--- Sets a card's count of a token (0 or less removes them); returns the new count.
local function set_tokens(c, name, v)
  local tokens = c.tokens
  if v <= 0 then
    if tokens[name] ~= nil then
      tokens[name] = nil
      if next(tokens) == nil then c.tokens = E.EMPTY end   -- (the last one gone)
    end
    return 0
  end
  if tokens == E.EMPTY then tokens = {}; c.tokens = tokens end
  tokens[name] = v
  return v
end

--- Adds n tokens (default 1; a negative n takes some away, down to none); returns the new count.
function T.add(c, name, n)
  c = token_args(c, name, "tokens.add")
  n = n or 1
  count_arg(n, "tokens.add")
  return set_tokens(c, name, (c.tokens[name] or 0) + n)
end

--- Removes up to n tokens (all of them when n is nil); returns the new count.
function T.remove(c, name, n)
  c = token_args(c, name, "tokens.remove")
  if n == nil then return set_tokens(c, name, 0) end
  count_arg(n, "tokens.remove")
  return set_tokens(c, name, (c.tokens[name] or 0) - math.max(n, 0))
end

--- Sets a card's count of a token; returns the new count.
function T.set(c, name, v)
  c = token_args(c, name, "tokens.set")
  count_arg(v, "tokens.set")
  return set_tokens(c, name, v)
end

--- Removes every token from a card.
function T.clear(c)
  c = card_arg(c, "tokens.clear")
  c.tokens = E.EMPTY
end

-------------------------------------------------------------------------------
-- Counters: bounded numbers, per player or shared, declared in YAML.
-- counters.get(p, name) / counters.get(name); add, set and spend return the new value.
-------------------------------------------------------------------------------
local S_GET = spec("counters.get", "counter", "", "", 0)
local S_ADD = spec("counters.add", "counter", "", ", n", 1)
local S_SET = spec("counters.set", "counter", "", ", v", 1)
local S_SPEND = spec("counters.spend", "counter", "", ", n", 1)
local S_CAN_SPEND = spec("counters.can_spend", "counter", "", ", n", 1)

-- Counters already named well, so a repeated call skips the checks:
-- player_counters[p][name] and shared_counters[name] are their declarations.
local player_counters, shared_counters = {}, {}

--- The table holding a counter, its name, declaration and the argument after the name.
local function counter_slot(sp, a, b, c)
  local counters = E.state.counters
  local known = player_counters[a]
  local cd = known and known[b]
  if cd then return counters[a], b, cd, c, a end
  cd = shared_counters[a]   -- a names a shared counter
  if cd and (c == nil or sp.rest == 0) and (b == nil or sp.rest == 1) then
    return counters.shared, a, cd, b, nil
  end
  local p, name, cd, x = subject(sp, a, b, c, nil, 1)
  remember(player_counters, shared_counters, p, name, cd)
  return p and counters[p] or counters.shared, name, cd, x, p
end

-- Counters hold whole numbers, as game.yaml declares them: a fraction (n / 2 where n // 2
-- was meant) is refused at the call that makes it, not said later by a format or a
-- scenario far from its cause. A float of a whole value (2.0; 1.0 from YAML) is that whole
-- number. Returns n as an integer.
local function number_arg(n, fn, what, level)
  local whole = type(n) == "number" and math.tointeger(n) or nil   -- (math.tointeger takes "2" too)
  if whole == nil then
    local hint = math.type(n) == "float" and n == n and n ~= math.huge and n ~= -math.huge
      and " (counters hold whole numbers: // divides to one, math.floor rounds down)" or ""
    error(fn .. ": " .. what .. " must be a whole number, got " .. E.show(n) .. hint, level or 3)
  end
  return whole
end

local function spent_arg(n, fn)
  n = number_arg(n, fn, "the amount", 4)
  if n < 0 then error(fn .. ": the amount must be 0 or more, got " .. E.show(n) .. " (counters.add gives)", 3) end
  return n
end

--- A counter's value: counters.get(p, name), or counters.get(name) for a shared one.
function K.get(a, b)
  local t, name = counter_slot(S_GET, a, b)
  return t[name]
end

local function clamp(v, cd)
  if cd.min and v < cd.min then v = cd.min end
  if cd.max and v > cd.max then v = cd.max end
  return v
end

--- Adds n (may be negative), kept within the counter's bounds; returns the new value.
function K.add(a, b, c)
  local t, name, cd, n, p = counter_slot(S_ADD, a, b, c)
  n = number_arg(n, "counters.add", "the amount")
  local v = clamp(t[name] + n, cd)
  t[name] = v
  if E.met ~= nil then E.met_wrote(E.met, p, name, v) end   -- (summon check's fairness audit)
  return v
end

--- Sets a counter, kept within its bounds; returns the new value.
function K.set(a, b, c)
  local t, name, cd, v, p = counter_slot(S_SET, a, b, c)
  v = number_arg(v, "counters.set", "the value")
  v = clamp(v, cd)
  t[name] = v
  if E.met ~= nil then E.met_wrote(E.met, p, name, v) end
  return v
end

--- Whether n can be spent without going below the counter's minimum.
function K.can_spend(a, b, c)
  local t, name, cd, n = counter_slot(S_CAN_SPEND, a, b, c)
  n = spent_arg(n, "counters.can_spend")
  return t[name] - n >= (cd.min or -math.huge)
end

--- Spends n, or fails if the counter would go below its minimum; returns the new value.
function K.spend(a, b, c)
  local t, name, cd, n, p = counter_slot(S_SPEND, a, b, c)
  n = spent_arg(n, "counters.spend")
  if t[name] - n < (cd.min or -math.huge) then
    fail("counters.spend: " .. (p and ("player " .. p) or "the game") .. " has " .. t[name] .. " " .. name ..
         ", needs " .. n)
  end
  local v = t[name] - n
  t[name] = v
  if E.met ~= nil then E.met_wrote(E.met, p, name, v) end
  return v
end

--- A counter's bounds from game.yaml: min, max (nil when unbounded).
function K.bounds(name)
  local cd = E.game.counters[name]
  if cd == nil then E.no_such("counters.bounds", "counter", name, names_of("counters")) end
  return cd.min, cd.max
end

-------------------------------------------------------------------------------
-- Dice: named dice whose faces list symbols.
-------------------------------------------------------------------------------
--- Rolls n dice of a kind; returns a list of faces, each {index=, symbols={...}, label=}.
function D.roll(name, n)
  local dd = E.game.dice[name]
  if not dd then E.no_such("dice.roll", "die", name, names_of("dice")) end
  if math.type(n) ~= "integer" or n < 0 then
    fail("dice.roll: the number of dice must be a whole number, 0 or more, got " .. E.show(n))
  end
  local out = {}
  for i = 1, n do
    local k = E.random_int(1, #dd.faces)
    local f = dd.faces[k]
    local sym = {}
    for _, s in ipairs(f) do sym[s] = (sym[s] or 0) + 1 end
    out[i] = { index = k, symbols = sym, label = table.concat(f, "+") }
  end
  E.note("roll", { die = name, faces = out })
  return out
end

--- The names of the dice the game declares, sorted (a new list).
function D.names() return E.copy_list(names_of("dice")) end

local symbol_list = nil   -- every symbol on some face of some die, sorted
local symbol_set = nil

-- Raises unless faces is the list dice.roll returned (fn: the caller's name).
local function rolled(fn, faces)
  local ok = type(faces) == "table"
  if ok then
    for _, f in ipairs(faces) do
      if type(f) ~= "table" or type(f.symbols) ~= "table" then ok = false break end
    end
  end
  if not ok then
    error(fn .. ": faces must be the list dice.roll returned, got " .. E.show(faces), 3)
  end
end
--- How many times a symbol shows among rolled faces (a symbol no die shows is an error).
function D.count(faces, symbol)
  rolled("dice.count", faces)
  local n = 0
  for _, f in ipairs(faces) do n = n + (f.symbols[symbol] or 0) end
  if n == 0 and (symbol_set == nil or not symbol_set[symbol]) then
    if symbol_set == nil then
      symbol_set, symbol_list = {}, {}
      for _, name in ipairs(names_of("dice")) do
        for _, f in ipairs(E.game.dice[name].faces) do
          for _, sym in ipairs(f) do
            if not symbol_set[sym] then
              symbol_set[sym] = true
              symbol_list[#symbol_list + 1] = sym
            end
          end
        end
      end
      table.sort(symbol_list)
    end
    if not symbol_set[symbol] then E.no_such("dice.count", "symbol", symbol, symbol_list) end
  end
  return n
end

--- The rolled faces' labels, joined with ", ".
function D.labels(faces)
  rolled("dice.labels", faces)
  local out = {}
  for i, f in ipairs(faces) do out[i] = f.label end
  return table.concat(out, ", ")
end
