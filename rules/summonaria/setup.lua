-- Summonaria: setting up a match, and what happens at the start and end of each turn.

--- The options naming squares and cards (game.yaml's schemas check their shape) must
--- name squares of the board and cards of the game.
local function check_option_names()
  local function square(s, name)
    if not board.exists(s) then error("options." .. name .. " names no square of the board: " .. tostring(s), 3) end
  end
  square(options.centre_tower, "centre_tower")
  for _, t in ipairs(options.temples) do square(t, "temples") end
  local known = {}
  for id in pairs(defs) do known[id] = true end
  for _, kind in ipairs(options.resource_kinds) do
    if not known[kind] then error("options.resource_kinds names no card of the game: " .. tostring(kind), 2) end
    local tagged = false
    for _, tag in ipairs(defs[kind].tags or {}) do tagged = tagged or tag == "resource" end
    if not tagged then
      error("options.resource_kinds names " .. kind .. ", which is no resource card (tagged resource)", 2)
    end
  end
end

--- Five standing towers; the shared resource deck (options.copies_per_resource of
--- each kind) shuffled; each player's army tokens, with the advance guard on their
--- domain's tower and portal; options.opening_hand cards each; a random first player.
function setup()
  check_option_names()
  state.vars.towers = {}
  for _, s in ipairs(tower_spaces()) do state.vars.towers[s] = "standing" end
  state.vars.claims = {}        -- player -> true: held the towers at the end of their turn
  state.vars.deployed = {}      -- player -> true: the advance guard's places are settled
  state.vars.proposed = {}      -- player -> trades proposed since their turn began
  state.vars.word = {}          -- player -> {kept, broken}: trades in which they handed over what they promised, or not
  state.vars.resources = {}     -- player -> their army's resource order (public, for the bots' evaluation)
  for _, p in ipairs(players.list()) do
    state.vars.proposed[p] = 0
    state.vars.word[p] = { kept = 0, broken = 0 }
  end
  for _, kind in ipairs(resource_kinds()) do
    for _ = 1, options.copies_per_resource do cards.create(kind, 1, "deck") end
  end
  zones.shuffle("deck")
  for _, p in ipairs(players.list()) do
    local set = sets[state.players[p].set]
    check_army(set)
    state.vars.resources[p] = { set.resources[1], set.resources[2], set.resources[3] }
    for _, id in ipairs(set.cards) do
      for _ = 1, defs[id].copies do cards.create(id, p, p, "army") end
    end
    local guard = set.advance_guard
    cards.place(army_token(p, guard[1]), home_tower(p))
    cards.place(army_token(p, guard[2]), portal_of(p))
    draw_resources(p, options.opening_hand)
    say(string.format("Player %d: %s, domain %s (portal %s, tower %s)", p, set.name, domain_of(p),
                      portal_of(p), home_tower(p)))
  end
  refresh_marks()
  state.active = rng.int(1, players.count())
  say(string.format("Player %d goes first", state.active))
  if options.turn_limit > 0 then   -- (the limit is ours, not the rulebook's: said before it can decide)
    say(string.format("If nobody has won after %d rounds, the game ends: most towers held wins, then most hits "
                      .. "left on the board, then most resource cards", options.turn_limit))
  end
end

--- What an army's file lacks of what the rules read: `resources` (three different
--- resource cards) and `advance_guard` (two of its units), and a cost on each unit; as
--- check_set's problems, {text, at = place in the file}.
local function army_problems(set)
  local out = {}
  local kinds = {}
  for _, k in ipairs(resource_kinds()) do kinds[k] = true end
  local order = set.resources
  if order == nil or #order ~= 3 then
    out[#out + 1] = { "an army needs resources: [primary, secondary, tertiary], three resource cards",
                      at = { order == nil and "id" or "resources" } }
  else
    for i, k in ipairs(order) do
      if not kinds[k] then
        out[#out + 1] = { "resources names " .. k .. ", which is not a resource card", at = { "resources", i } }
      end
      for j = 1, i - 1 do
        if order[j] == k then out[#out + 1] = { "resources names " .. k .. " twice", at = { "resources", i } } end
      end
    end
  end
  local own = {}
  for _, id in ipairs(set.cards) do own[id] = true end
  local guard = set.advance_guard
  if guard == nil or #guard ~= 2 then
    out[#out + 1] = { "an army needs advance_guard: [tower unit, portal unit], two of its units",
                      at = { guard == nil and "id" or "advance_guard" } }
  else
    for i, id in ipairs(guard) do
      if not own[id] then
        out[#out + 1] = { "advance_guard names " .. id .. ", which is not one of this army's units",
                          at = { "advance_guard", i } }
      end
    end
  end
  for i, id in ipairs(set.cards) do
    if not defs[id].cost then out[#out + 1] = { "the unit " .. id .. " has no cost", at = { "cards", i } } end
  end
  return out
end

--- For `summon check`: each army's problems at their line of its file.
function check_set(set)
  return army_problems(set)
end

--- Stops with a clear message when an army's file lacks what the rules read (a match
--- seated with an army `summon check` would have named).
function check_army(set)
  local found = army_problems(set)
  if #found > 0 then error("card set '" .. set.id .. "': " .. found[1][1], 0) end
end

--- The first token of a kind in a player's army zone, or nil.
function army_token(p, kind)
  for _, c in ipairs(zones.cards(p, "army")) do
    if c.def == kind then return c end
  end
  return nil
end

on("turn_start", function(ev)
  local p = ev.player
  -- this turn's units: moved (it moved, or moved in after a kill: charge, rebuilding,
  -- blessings), done (it has had its go), rebuilding (towers to stand again at the end),
  -- regenerated (it used that ability this turn, so it cannot rebuild)
  state.vars.turn = { moved = {}, done = {}, left = {}, rebuilding = {}, regenerated = {} }
  state.vars.proposed[p] = 0    -- the trades p may propose until their next turn (trade.lua)
  if state.vars.claims[p] then
    state.vars.claims[p] = nil
    if meets_goal(p) then
      win(p, string.format("Player %d has held %s for a full turn and completes the Spell of Focusing",
                           p, table.concat(towers_held(p), ", ")))
    else
      say(string.format("Player %d no longer holds the towers they claimed", p))
    end
  end
  for _, c in ipairs(units_of(p)) do
    local r = def_of(c).regenerate
    if r and wounds(c) > 0 then
      local n, was = math.min(r, wounds(c)), describe(c)
      -- a rebuilding unit uses no special ability that turn: one that could rebuild the
      -- crumbled tower it stands on may hold its regeneration back to do so
      local heal = true
      if can_rebuild(c) then
        heal = choose({
          player = p,
          prompt = string.format("%s stands on the crumbled tower at %s: regenerate, or hold back to rebuild it?",
                                 was, c.space),
          options = { { label = string.format("Regenerate the %s (%d wound%s)", c.name, n, n == 1 and "" or "s"),
                        heal = true },
                      { label = string.format("Hold back: the %s may rebuild the tower at %s", c.name, c.space) } },
        }).heal == true
      end
      if heal then
        tokens.remove(c, "wound", n)
        state.vars.turn.regenerated[c.id] = true
        say(string.format("%s regenerates %d wound%s", was, n, n == 1 and "" or "s"))
      end
    end
  end
end)

on("turn_end", function(ev)
  local p = ev.player
  if meets_goal(p) then
    state.vars.claims[p] = true
    say(string.format("Player %d holds %s: if they still do when their next turn begins, they win",
                      p, table.concat(towers_held(p), ", ")))
  end
  if options.turn_limit > 0 and state.turn >= options.turn_limit * players.count() then
    end_by_turn_limit()
  elseif options.turn_limit > 0 and state.turn == (options.turn_limit - 1) * players.count() then
    say(string.format("The last round (%d) begins: after it, towers held, then hits, then cards decide",
                      options.turn_limit))
  end
end)

--- The tie-break after the last round: most towers held, then the most hits left on
--- the board (hit ratings minus wounds, blessings counting one), then the most
--- resource cards in hand; still equal, a draw.
function end_by_turn_limit()
  local function score(p)
    local left = 0
    for _, c in ipairs(units_of(p)) do left = left + stat(c, "hits") - wounds(c) + tokens.get(c, "blessing") end
    return { #towers_held(p), left, zones.count(p, "hand") }
  end
  local best, winner, tied = nil, nil, false
  for _, p in ipairs(players.list()) do
    local s = score(p)
    say(string.format("Player %d: towers held %d, hits left on the board %d, resource cards %d", p, s[1], s[2], s[3]))
    local cmp = 0
    if best then
      for i = 1, 3 do
        if s[i] ~= best[i] then cmp = s[i] > best[i] and 1 or -1 break end
      end
    end
    if best == nil or cmp > 0 then best, winner, tied = s, p, false
    elseif cmp == 0 then tied = true end
  end
  if tied then
    end_game(nil, string.format("The turn limit (%d rounds) is reached and the leaders are tied", options.turn_limit))
  else
    win(winner, string.format("The turn limit (%d rounds) is reached: player %d leads on towers, then hits, then resources",
                              options.turn_limit, winner))
  end
end
