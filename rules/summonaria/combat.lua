-- Summonaria: attacks. Exploding d10s, towers and blessings taking hits, strike
-- back, moving in, Fear, ranged attacks and the domain bonus.

--- Rolls n d10s, and again while a roll scores a hit (options.max_rolls at most) and
--- again(hits so far, rolls' text so far), when given, says to. Returns the hits and
--- the rolls' text ("1 5 1; 10 7 8").
function roll_attack(n, again)
  local hits, parts = 0, {}
  for _ = 1, options.max_rolls do
    if n <= 0 then break end
    local faces = dice.roll("d10", n)
    local got, shown = dice.count(faces, "hit"), {}
    for i, f in ipairs(faces) do shown[i] = tostring(f.index) end
    parts[#parts + 1] = table.concat(shown, " ")
    hits = hits + got
    if got == 0 or (again and not again(hits, table.concat(parts, "; "))) then break end
  end
  return hits, table.concat(parts, "; ")
end

--- Hits that destroy a unit defending on its square now: a standing tower's, its
--- blessing's, then one per hit it has left.
local function hits_to_destroy(c)
  return (is_standing(c.space) and 1 or 0) + (is_blessed(c) and 1 or 0) + stat(c, "hits") - wounds(c)
end

--- Dice a unit rolls in an attack fought on `space`: its attack, one more for a
--- melee fight in its controller's own domain, and its keyword bonuses.
function dice_for(c, space, ranged, how)
  local n = stat(c, "attack")
  if not ranged and domain_owner(space) == c.controller then n = n + options.domain_dice end
  if how == "attack" and def_of(c).charge and state.vars.turn.moved[c.id] then n = n + 1 end
  if how == "strike back" and def_of(c).guard then n = n + 1 end
  return n
end

--- Applies hits one at a time: a standing tower under the unit takes the first and
--- crumbles (only when the unit is the one attacked, `defending`: a tower does not
--- shield an attacker struck back), then a blessing takes one, then each is a wound.
--- Returns true if the unit is destroyed.
function take_hits(c, hits, by, defending)
  for _ = 1, hits do
    if defending and is_standing(c.space) then
      state.vars.towers[c.space] = "crumbled"
      refresh_marks()
      say(string.format("The tower at %s takes a hit for %s and crumbles", c.space, c.name))
    elseif is_blessed(c) then
      tokens.remove(c, "blessing")
      say(string.format("%s's blessing takes a hit and is used up", c.name))
    else
      tokens.add(c, "wound")
      if wounds(c) >= stat(c, "hits") then
        destroy(c, by)
        return true
      end
    end
  end
  return false
end

--- One side's roll against the other: `how` is "attack" (the target is the unit
--- attacked, so a tower under it may take a hit) or "strike back" (the target is the
--- attacker). Returns true if the target is destroyed.
local function strike(c, target, space, ranged, how)
  local n = dice_for(c, space, ranged, how)
  -- After a roll that hits, the attacker "may" roll again. It matters only in melee,
  -- where a defender destroyed must be moved into (off a tower, say): so the attacker
  -- of a melee fight is asked whenever more hits could destroy a defender the hits so
  -- far leave standing. Otherwise (the defender striking back, a ranged shot, a
  -- defender already done for, or one on another player's portal, which the attacker
  -- never moves onto: move_in) more hits cannot hurt, and the dice are rolled again.
  local again = nil
  if how == "attack" and not ranged and not is_enemy_portal(space, c.controller) then
    again = function(hits, text)
      if hits >= hits_to_destroy(target) then return true end
      local plural = hits == 1 and "" or "s"
      return choose({
        player = c.controller,
        prompt = string.format("%s rolled %s: %d hit%s on %s so far. Roll again?", describe(c), text, hits, plural,
                               describe(target)),
        options = { { label = "Roll again", go = true }, { label = string.format("Stop at %d hit%s", hits, plural) } },
      }).go == true
    end
  end
  local hits, text = roll_attack(n, again)
  say(string.format("%s %s%s with %d d10: %s -> %d hit%s", c.name, how, ranged and " (ranged)" or "", n, text,
                    hits, hits == 1 and "" or "s"))
  return take_hits(target, hits, c, how == "attack")
end

--- The attacker has destroyed the unit on `space`: it must move in, unless the square
--- is another player's portal, where no unit may end its turn (then it stays put).
local function move_in(attacker, space)
  if is_enemy_portal(space, attacker.controller) then
    say(string.format("%s may not end its turn on player %d's portal at %s: it stays at %s", attacker.name,
                      domain_owner(space), space, attacker.space))
    return
  end
  cards.place(attacker, space)
  state.vars.turn.moved[attacker.id] = true
  say(string.format("%s moves into %s", attacker.name, space))
end

--- Whether the defender's controller tries Fear, and whether it works.
local function fear_works(attacker, target, ranged)
  if ranged or not has_fear(target) or has_fear(attacker) then return false end
  local pick = choose {
    player = target.controller,
    prompt = string.format("%s attacks your %s: roll for Fear?", describe(attacker), describe(target)),
    options = { { label = "Roll for Fear", go = true }, { label = "Do not roll for Fear" } },
  }
  if not pick.go then return false end
  local r = dice.roll("d6", 1)[1].index
  local ok = r >= options.fear_roll
  say(string.format("Fear: player %d rolls %d%s", target.controller, r,
                    ok and ": the attacker hesitates and the defender strikes first" or ": no effect"))
  return ok
end

--- An attack. Melee: the attacker rolls, a destroyed defender's square is taken by
--- the attacker (not another player's portal: move_in), otherwise the defender
--- strikes back (Fear may turn the order round).
--- Ranged: the attacker rolls, nothing more.
function attack(attacker, target)
  local ranged = is_ranged(attacker)
  local space = target.space
  say(string.format("Player %d's %s attacks %s", attacker.controller, describe(attacker), describe(target)))
  if ranged then
    strike(attacker, target, space, true, "attack")
  elseif fear_works(attacker, target, ranged) then
    if not strike(target, attacker, space, false, "strike back") then
      if strike(attacker, target, space, false, "attack") then move_in(attacker, space) end
    end
  else
    if strike(attacker, target, space, false, "attack") then
      move_in(attacker, space)
    else
      strike(target, attacker, space, false, "strike back")
    end
  end
  emit("after_attack", { attacker = attacker, target = target, ranged = ranged })
end

--- Enemy units a unit may attack from where it stands: adjacent ones, or for a
--- ranged unit the first unit in each of the eight directions within its range.
function attack_targets(c)
  if not is_ranged(c) then return enemies_adjacent(c) end
  local out = {}
  for _, d in ipairs(board.directions()) do
    for _, s in ipairs(board.ray(c.space, d[1], d[2], stat(c, "range"))) do
      local o = board.card_at(s)
      if o then
        if o.controller ~= c.controller and is_unit(o) then out[#out + 1] = o end
        break
      end
    end
  end
  return out
end
