-- Summoner Wars: setting up a match.

--- A seat's draw pile ({card=, copies=} in order) and starting layout. A faction set
--- gives its own cards' copies and its layout; a custom deck (a set with a `deck:`
--- list) gives its list, less its summoner, and starts with the layout of the
--- summoner's own faction (the units and gate printed on the summoner's card).
function deck_of(set)
  if set.deck == nil then
    local pile = {}
    for _, id in ipairs(set.cards) do pile[#pile + 1] = { card = id, copies = defs[id].copies } end
    return pile, set.layout or {}
  end
  local pile, layout = {}, nil
  for _, entry in ipairs(set.deck) do
    local d = defs[entry.card]
    local leader = false
    for _, t in ipairs(d.tags or {}) do leader = leader or t == "summoner" end
    if leader then
      layout = sets[d.set] and sets[d.set].layout
    else
      pile[#pile + 1] = { card = entry.card, copies = entry.copies or 1 }
    end
  end
  if layout == nil then
    error("the deck '" .. set.id .. "' has no summoner whose faction gives a starting layout")
  end
  return pile, layout
end

local function has_summoner_tag(id)
  for _, t in ipairs(defs[id].tags or {}) do
    if t == "summoner" then return true end
  end
  return false
end

--- For `summon check`: a faction's layout puts one summoner on the battlefield and one
--- card on each space (the schema keeps each to the board; a custom deck takes its
--- summoner's layout, which the deck rules ask for).
function check_set(set)
  local problems = {}
  if set.deck ~= nil then return problems end
  local layout = set.layout
  if layout == nil then
    return { { "a faction needs a layout: the cards it starts with on the battlefield, its summoner among them",
               at = { "id" } } }
  end
  local taken, summoner = {}, nil
  for i, spot in ipairs(layout) do
    local key = spot.row .. ":" .. spot.col
    if taken[key] then
      problems[#problems + 1] = { string.format("%s starts on row %d, col %d, where %s starts (layout entry %d)",
                                                spot.card, spot.row, spot.col, layout[taken[key]].card, taken[key]),
                                  at = { "layout", i } }
    else
      taken[key] = i
    end
    if has_summoner_tag(spot.card) then
      if summoner then
        problems[#problems + 1] = { string.format("a second summoner in the layout (%s; %s is entry %d): a " ..
                                                  "faction starts with one", spot.card, layout[summoner].card, summoner),
                                    at = { "layout", i, "card" } }
      else
        summoner = i
      end
    end
  end
  if summoner == nil then
    problems[#problems + 1] = { "the layout has no summoner (a card tagged summoner): a player whose summoner " ..
                                "is not on the battlefield has lost", at = { "layout" } }
  end
  return problems
end

--- Each player's faction: the layout on the battlefield, the rest shuffled into
--- the draw pile, the opening hand drawn (options.opening_hand); then a random
--- first player on options.first_player_magic, the other on options.second_player_magic.
function setup()
  for _, p in ipairs(players.list()) do
    local pile, layout = deck_of(sets[state.players[p].set])
    for _, entry in ipairs(pile) do
      for _ = 1, entry.copies do cards.create(entry.card, p, p, "draw") end
    end
    for _, spot in ipairs(layout) do
      local c = cards.create(spot.card, p)
      cards.place(c, layout_space(p, spot.row, spot.col))
    end
    zones.shuffle(p, "draw")
    zones.draw(p, "draw", "hand", options.opening_hand)
  end
  local first = rng.int(1, players.count())
  state.active = first
  state.first_player = first
  counters.set(first, "magic", options.first_player_magic)
  counters.set(opponent(first), "magic", options.second_player_magic)
  say(string.format("Player %d goes first", first))
end

--- An active event leaves its owner's active area: the cards hear `leaving_active`
--- while it is still there (a Sacrificial Pyre heals), then it is discarded.
function leave_active(c)
  local key = "active:" .. c.controller
  if c.zone ~= key then return end
  emit("leaving_active", { card = c, player = c.controller })
  if c.zone ~= key then return end
  say(string.format("%s leaves player %d's active area", c.name, c.controller))
  discard(c)
end

-- At the start of a turn, the active player's active events are discarded. Those
-- that do something as they leave do it then, in the order the player chooses
-- when there are several (they leave at the same time).
on("turn_start", function(ev)
  for _, c in ipairs(zones.cards(ev.player, "active")) do
    if def_of(c).hooks.leaving_active then
      defer(function() leave_active(c) end, c.name .. " leaves the active area", c)
    else
      leave_active(c)
    end
  end
  -- a turn's marks start afresh; when each base strength took effect is kept for good
  local v = state.vars
  state.vars = { moved = {}, attacked = {}, targeted_enemy = false,
                 base_since = v.base_since, base_clock = v.base_clock }
end)
