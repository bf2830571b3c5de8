-- Summonaria: the rulebook's words as functions (domains, towers, temples, units,
-- resources) that the setup, the phases and the cards share.

-- The board ---------------------------------------------------------------------

--- The domains in play, in seat order (options.domains_2/3/4).
function domains_in_play()
  return options["domains_" .. players.count()]
end

--- A player's domain (a board region), by seat.
function domain_of(p) return domains_in_play()[p] end

function portal_of(p) return board.region_info(domain_of(p)).portal end
function home_tower(p) return board.region_info(domain_of(p)).tower end

--- The player whose domain holds a space, or nil (the centre cross and unheld domains).
function domain_owner(s)
  local r = board.region(s)
  if r == nil then return nil end
  for p, d in ipairs(domains_in_play()) do
    if d == r then return p end
  end
  return nil
end

--- Whether a space is the portal of a player in the game other than p.
function is_enemy_portal(s, p)
  for q = 1, players.count() do
    if q ~= p and portal_of(q) == s then return true end
  end
  return false
end

--- The five tower squares (each domain's, held or not, and the centre one), by name.
function tower_spaces()
  local out = {}
  for _, r in ipairs(board.regions()) do out[#out + 1] = board.region_info(r).tower end
  out[#out + 1] = options.centre_tower
  table.sort(out)
  return out
end

function is_tower(s) return state.vars.towers[s] ~= nil end
function is_standing(s) return state.vars.towers[s] == "standing" end

function is_temple(s)
  for _, t in ipairs(options.temples) do
    if t == s then return true end
  end
  return false
end

-- Units -------------------------------------------------------------------------

function is_unit(c) return cards.has_tag(c, "unit") end
function def_of(c) return cards.def(c) end

--- A player's units on the board, in board order.
function units_of(p)
  return cards.on_board(function(c) return c.controller == p and is_unit(c) end)
end

function wounds(c) return tokens.get(c, "wound") end
function is_blessed(c) return tokens.get(c, "blessing") > 0 end
function has_fear(c) return cards.has_tag(c, "fear") end
function is_ranged(c) return stat(c, "range") > 0 end

function enemies_adjacent(c)
  local out = {}
  for _, s in ipairs(board.neighbors(c.space)) do
    local o = board.card_at(s)
    if o and o.controller ~= c.controller and is_unit(o) then out[#out + 1] = o end
  end
  return out
end

--- "Troll at d4" (with its wounds and blessing).
function describe(c)
  local extra = {}
  if wounds(c) > 0 then extra[#extra + 1] = wounds(c) .. " wound" .. (wounds(c) == 1 and "" or "s") end
  if is_blessed(c) then extra[#extra + 1] = "blessed" end
  local s = string.format("%s at %s", c.name, c.space or "?")
  if #extra > 0 then s = s .. " (" .. table.concat(extra, ", ") .. ")" end
  return s
end

--- A destroyed unit leaves the board: its token goes back to its owner's army, free
--- to be summoned again.
function destroy(c, by)
  local space = c.space
  tokens.clear(c)
  cards.to_zone(c, c.owner, "army")
  c.controller = c.owner
  say(string.format("%s at %s is destroyed", c.name, space))
  emit("on_destroyed", { card = c, space = space, by = by })
end

-- Resources -------------------------------------------------------------------------

--- The army's resource order: primary, secondary, tertiary (card ids).
function resource_order(p)
  return sets[state.players[p].set].resources
end

--- The resource card ids (options.resource_kinds).
function resource_kinds()
  return options.resource_kinds
end

--- How many of each resource a player holds: kind -> count.
function hand_counts(p)
  local n = {}
  for _, k in ipairs(resource_kinds()) do n[k] = 0 end
  for _, c in ipairs(zones.cards(p, "hand")) do n[c.def] = (n[c.def] or 0) + 1 end
  return n
end

function plural(n, word) return n .. " " .. word end

--- Spends n cards of a kind from a hand onto the exhausted pile.
function spend_kind(p, kind, n)
  local left = n
  local hand = zones.cards(p, "hand")
  for i = #hand, 1, -1 do
    if left == 0 then break end
    if hand[i].def == kind then
      cards.to_zone(hand[i], "exhausted")
      left = left - 1
    end
  end
  if left > 0 then error("spend_kind: player " .. p .. " has too few " .. defs[kind].name) end
end

--- Draws n resource cards for a player, shuffling the exhausted pile into the deck
--- when it runs out. Returns how many were drawn.
function draw_resources(p, n)
  local got = 0
  for _ = 1, n do
    if zones.count("deck") == 0 then
      if zones.count("exhausted") == 0 then break end
      for _, c in ipairs(zones.cards("exhausted")) do cards.to_zone(c, "deck") end
      zones.shuffle("deck")
      say("The exhausted pile is shuffled into a new resource deck")
    end
    zones.draw(p, "deck", "hand", 1)
    got = got + 1
  end
  return got
end

--- Asks a player to discard resource cards until they hold at most `limit`. With
--- `trading`, the player may instead transmute or propose a trade (trading_options)
--- and is asked again after it.
function discard_down_to(p, limit, why, trading)
  while zones.count(p, "hand") > limit do
    local opts, seen = {}, {}
    for _, c in ipairs(zones.cards(p, "hand")) do
      if not seen[c.def] then
        seen[c.def] = true
        opts[#opts + 1] = { label = "Discard a " .. c.name, card = c }
      end
    end
    if trading then
      for _, o in ipairs(trading_options(p)) do opts[#opts + 1] = o end
    end
    local pick = choose { player = p, options = opts,
                          prompt = string.format("%s: discard down to %d (you hold %d)", why, limit,
                                                 zones.count(p, "hand")) }
    if not (trading and take_trading_option(p, pick)) then
      cards.to_zone(pick.card, "exhausted")
      say(string.format("Player %d discards a %s", p, pick.card.name))
    end
  end
end

-- Towers and winning ------------------------------------------------------------------

--- The towers a player's units occupy.
function towers_held(p)
  local out = {}
  for _, s in ipairs(tower_spaces()) do
    local c = board.card_at(s)
    if c and c.controller == p then out[#out + 1] = s end
  end
  return out
end

--- Whether a player holds their own tower and enough of the others to win.
function meets_goal(p)
  local home, others = false, 0
  for _, s in ipairs(towers_held(p)) do
    if s == home_tower(p) then home = true else others = others + 1 end
  end
  local need = players.count() == 4 and options.towers_to_win_4p or options.towers_to_win
  return home and others >= need
end

--- Whether another player's unit holds p's domain tower (focus disruption).
function is_disrupted(p)
  local c = board.card_at(home_tower(p))
  return c ~= nil and c.controller ~= p
end

-- What the board shows on its squares (game.yaml display: marks) ------------------------

--- Writes state.vars.marks: each tower ("tower" standing, "ruin" crumbled), temple and
--- player's portal ("portal1"), for the terminal's board.
function refresh_marks()
  local marks = {}
  for _, t in ipairs(options.temples) do marks[t] = "temple" end
  for _, p in ipairs(players.list()) do marks[portal_of(p)] = "portal" .. p end
  for s, how in pairs(state.vars.towers) do marks[s] = how == "standing" and "tower" or "ruin" end
  state.vars.marks = marks
end
