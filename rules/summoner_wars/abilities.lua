-- Summoner Wars: small helpers the cards' abilities share (boost, once-a-turn
-- abilities, yes/no questions, picking cards, bringing cards back into play),
-- and the rule that a card placed under another lends that card its text.

-- Names ----------------------------------------------------------------------------

--- Whether a card's name holds a word, or words in a row, as whole words: an
--- "Undead" unit is an Undead Warrior or an Undead Carrier; an "Ice" structure is
--- not a Portal Device.
function has_name_word(c, words)
  local name, want = {}, {}
  for w in c.name:gmatch("[%w']+") do name[#name + 1] = w end
  for w in words:gmatch("[%w']+") do want[#want + 1] = w end
  if #want == 0 then return false end
  for i = 1, #name - #want + 1 do
    local all = true
    for k = 1, #want do
      if name[i + k - 1] ~= want[k] then
        all = false
        break
      end
    end
    if all then return true end
  end
  return false
end

-- Boost ----------------------------------------------------------------------------

function boost(c) return tokens.get(c, "boost") end

function add_boost(c, n)
  n = n or 1
  tokens.add(c, "boost", n)
  say(string.format("%s gains %d boost (now %d)", c.name, n, boost(c)))
end

--- Spends n boost if the card has that much; returns whether it did.
function spend_boost(c, n)
  if boost(c) < n then return false end
  tokens.remove(c, "boost", n)
  return true
end

-- Once a turn ------------------------------------------------------------------------
-- state.vars is emptied at the start of every turn, so marks kept there last one turn.

function used_this_turn(c, key)
  local used = state.vars.used
  return used ~= nil and used[key .. ":" .. c.id] == true
end

function mark_used(c, key)
  state.vars.used = state.vars.used or {}
  state.vars.used[key .. ":" .. c.id] = true
end

--- Whether any of player's units (the summoner too) stands next to an enemy summoner:
--- then what they do there could finish it (Purge offers your own summoner only then).
function beside_enemy_summoner(player)
  for _, e in ipairs(cards.on_board(function(c) return is_summoner(c) and c.controller ~= player end)) do
    if #adjacent_cards(e.space, function(c) return is_unit(c) and c.controller == player end) > 0 then
      return true
    end
  end
  return false
end

-- Questions ----------------------------------------------------------------------------

--- A yes-or-no question ("may" abilities); returns true for yes.
function ask(p, prompt, yes, no)
  local pick = choose { player = p, prompt = prompt,
                        options = { { label = yes, yes = true }, { label = no } } }
  return pick.yes == true
end

--- Offers cards on the battlefield; returns the card picked, or nil when the
--- player takes the decline option (given only when `decline` is a label).
function pick_card(p, prompt, list, decline, fmt)
  local opts = {}
  for _, c in ipairs(list) do
    opts[#opts + 1] = { label = string.format(fmt or "%s at %s", c.name, where(c)), card = c }
  end
  if decline then opts[#opts + 1] = { label = decline } end
  if #opts == 0 then return nil end
  return choose { player = p, prompt = prompt, options = opts }.card
end

--- Offers spaces; returns the space picked.
function pick_space(p, prompt, spaces)
  return choose { player = p, prompt = prompt, options = spaces }.label
end

--- Empty spaces next to a space, sorted.
function empty_neighbors(space)
  local out = {}
  for _, s in ipairs(board.neighbors(space)) do
    if board.is_empty(s) then out[#out + 1] = s end
  end
  table.sort(out)
  return out
end

-- Spaces held for a card about to arrive --------------------------------------------
-- While an effect is resolving that will put a card on a space just emptied (a
-- unit that takes the place of one destroyed), abilities that react to the
-- destruction must not take that space.

function reserve_space(s)
  state.vars.reserved = state.vars.reserved or {}
  state.vars.reserved[s] = true
end

function release_space(s)
  if state.vars.reserved then state.vars.reserved[s] = nil end
end

--- An empty space that no resolving effect is holding.
function space_open(s)
  return board.is_empty(s) and not (state.vars.reserved and state.vars.reserved[s])
end

-- Bringing cards into play -------------------------------------------------------------

--- Puts a card from off the battlefield (a discard pile) onto an empty space,
--- under a player's control. This is placing, not summoning.
function put_into_play(c, p, space)
  cards.place(c, space)
  c.controller = p
  say(string.format("Player %d places %s at %s", p, c.name, space))
end

-- Base strength ----------------------------------------------------------------------
-- A card in play may set other units' base strength (its `base_strength` ability
-- returns the new base, or nil). The base replaces the printed strength before any
-- other modifier applies, so bonuses still add to it. When several cards set one
-- unit's base, only the last of them to take effect counts (the glossary's BASE
-- STRENGTH): state.vars.base_since["unit:card"] numbers, in order, when each card's
-- base began to apply to each unit (kept from turn to turn: setup.lua), and
-- refresh_bases brings it up to date before every question of a phase (phases.lua:
-- next_step). A base that began since the
-- last refresh is the newest; between two of the same age, the later in play order.

local function base_key(unit, card) return unit.id .. ":" .. card.id end

--- Numbers each base that has begun to apply since the last call, and forgets those
--- that no longer apply (so one that applies again later is new again).
function refresh_bases()
  local setters = cards.in_play_with("abilities", "base_strength")
  local old = state.vars.base_since
  if #setters == 0 then
    if old then state.vars.base_since = nil end
    return
  end
  old = old or {}
  local now, clock = {}, state.vars.base_clock or 0
  for _, u in ipairs(cards.on_board(is_unit)) do
    for _, m in ipairs(setters) do
      if def_of(m).abilities.base_strength(m, u) ~= nil then
        local k = base_key(u, m)
        if old[k] == nil then clock = clock + 1 end
        now[k] = old[k] or clock
      end
    end
  end
  state.vars.base_since, state.vars.base_clock = now, clock
end

local function base_strength_of(c)
  local setters = cards.in_play_with("abilities", "base_strength")
  if #setters == 0 then return nil end   -- (the common case: asked for every strength read)
  local base, newest = nil, nil
  local since = state.vars.base_since or {}
  for _, m in ipairs(setters) do
    local b = def_of(m).abilities.base_strength(m, c)
    if b ~= nil then
      local t = since[base_key(c, m)] or math.huge
      if newest == nil or t >= newest then base, newest = b, t end
    end
  end
  return base
end

add_modifier("strength", function(c, v)
  if not (c.space and is_unit(c)) then return v end
  local b = base_strength_of(c)
  if b == nil then return v end
  return b
end)

-- Instead of moving or attacking ------------------------------------------------------
-- An ability used instead of moving (attacking) counts as that unit's move (attack)
-- for the phase's limit, and a unit that has moved (attacked) cannot use it.

local function count_keys(t)
  local n = 0
  for _ in pairs(t or {}) do n = n + 1 end
  return n
end

local INSTEAD = { move = true, attack = true }

local function instead_arg(what, fn)
  if not INSTEAD[what] then
    error(fn .. ": an ability is used instead of \"move\" or \"attack\", not \"" .. tostring(what) .. "\"", 3)
  end
end

--- Whether a unit may still use an ability instead of moving (what = "move") or
--- attacking ("attack"): it has not done so, and the phase's limit is not reached.
function can_instead_of(c, what)
  instead_arg(what, "can_instead_of")
  local done = what == "move" and state.vars.moved or state.vars.attacked
  local limit = what == "move" and options.movers or options.attackers
  if done == nil or done[c.id] then return false end
  return count_keys(done) < limit
end

--- Counts an ability used instead of moving or attacking as that unit's move or attack.
function use_instead_of(c, what)
  instead_arg(what, "use_instead_of")
  local done = what == "move" and state.vars.moved or state.vars.attacked
  done[c.id] = true
end

-- Exchanging places, returning to hand, taking control ---------------------------------

--- Two cards on the battlefield swap spaces. Neither moves nor is forced.
function exchange_places(a, b)
  local sa, sb = a.space, b.space
  cards.swap(a, b)
  say(string.format("%s (%s) and %s (%s) exchange places", a.name, sa, b.name, sb))
  check_lethal_after_move()   -- (as after a move)
end

--- A card on the battlefield goes back to its owner's hand: the cards under it are
--- discarded and its tokens removed; if it comes back it is a new card.
function return_to_hand(c)
  local from = c.space
  for _, u in ipairs(cards.attached(c)) do discard(u) end
  tokens.clear(c)
  c.controller = c.owner
  cards.to_zone(c, c.owner, "hand")
  say(string.format("%s at %s returns to player %d's hand", c.name, from, c.owner))
  check_lethal()   -- a card that gave others life may have gone
end

--- A player takes control of a card on the battlefield (and of the cards under it).
function take_control(c, p)
  c.controller = p
  for _, u in ipairs(cards.attached(c)) do u.controller = p end
  say(string.format("Player %d takes control of %s at %s", p, c.name, c.space))
  check_lethal()   -- life given by its old side's cards (or by it to them) may be gone
end

-- Cards under a card ---------------------------------------------------------------------
-- A card put under another (a weapon, a smith) leaves play, travels with its
-- host and is discarded with it. Its text still works through the host: its
-- hooks of the events below hear them, and its modifiers apply to its host,
-- with self being the card underneath (self.host is the host's id).

--- Puts a card under a host: it loses its tokens and the cards under it first.
function put_under(c, host)
  for _, u in ipairs(cards.attached(c)) do discard(u) end
  tokens.clear(c)
  cards.attach(c, host)
  c.controller = host.controller
  say(string.format("%s is put under %s at %s", c.name, host.name, host.space))
end

-- A card never has two copies of one ability: a host with several cards of one
-- name under it (two Hellforged Weapons, two Ice Smiths) gains that card's text
-- once. The first of them (the earliest put under) lends it.

--- The cards under a host that lend it their text: one of each name.
function lending_cards(host)
  local out, seen = {}, {}
  for _, u in ipairs(cards.attached(host)) do
    if u.host == host.id and not seen[u.def] then
      seen[u.def] = true
      out[#out + 1] = u
    end
  end
  return out
end

local UNDER_EVENTS = { "before_attack", "attack_rolled", "after_attack", "after_move", "after_force",
                       "after_damage", "on_destroyed" }

for _, name in ipairs(UNDER_EVENTS) do
  on(name, function(ev)
    for _, host in ipairs(cards.on_board()) do
      if #host.under > 0 then
        for _, u in ipairs(lending_cards(host)) do
          local fn = def_of(u).hooks[name]
          if fn then fn(u, ev) end
        end
      end
    end
  end)
end

for _, stat_name in ipairs({ "strength", "life", "move" }) do
  add_modifier(stat_name, function(c, v)
    local under = c.under
    if under == nil or #under == 0 then return v end
    for _, u in ipairs(lending_cards(c)) do
      local fn = def_of(u).modifiers[stat_name]
      if fn then v = fn(u, c, v) end
    end
    return v
  end)
end
