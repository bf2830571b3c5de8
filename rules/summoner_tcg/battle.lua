-- Summoner TCG: Gambits and the battle.

-- Gambits ------------------------------------------------------------------------------

local function has_window(c, window)
  for _, w in ipairs(def_of(c).windows or {}) do
    if w == window then return true end
  end
  return false
end

--- Whether Gambit c can take effect for p in this context (ctx.window names when).
function gambit_ok(c, p, ctx)
  if not is_gambit(c) or not has_window(c, ctx.window) then return false end
  local can = def_of(c).abilities.can_play
  return can == nil or can(c, p, ctx) == true
end

--- A Gambit takes effect, then goes to the graveyard. From the hand its cost is paid
--- now; a primed one was paid for when it was primed and is revealed first.
function resolve_gambit(c, p, ctx)
  if on_field(c) then
    cards.turn_face_up(c)
    say(string.format("Player %d reveals %s", p, c.name))
  else
    pay(p, stat(c, "cost"))
    say(string.format("Player %d plays %s (cost %d)", p, c.name, stat(c, "cost")))
  end
  local play = def_of(c).abilities.play
  cards.to_zone(c, c.owner, "graveyard")
  cards.turn_face_up(c)
  if play then play(c, p, ctx) end
  emit("after_gambit", { card = c, player = p })
end

--- A window for Gambits on another player's turn: each player in `who` (seat order)
--- who has a primed card is asked, whether or not one of them can be used now, so
--- being asked gives nothing away; each may reveal usable Gambits one by one. The window
--- closes once the player whose turn it is (ctx.active) is out: what it answers (their
--- attacks, their turn) is over, and a Gambit revealed then would be spent on nothing.
function react(window, ctx, who)
  ctx.window = window
  for _, q in ipairs(who) do
    while not is_out(q) and not is_out(ctx.active) and not state.over and zones.count(q, "field") > 0
        and #field_of(q, is_primed) > 0 do
      local opts = {}
      for _, c in ipairs(one_of_each(field_of(q, is_primed))) do
        if gambit_ok(c, q, ctx) then
          opts[#opts + 1] = { label = "Reveal " .. c.name, card = c }
        end
      end
      opts[#opts + 1] = { label = "Pass", pass = true }
      local pick = choose { player = q, prompt = window == "battle" and "You are attacked: reveal a Gambit?"
                            or "Player " .. state.active .. "'s turn ends: reveal a Gambit?",
                            options = opts, secret = true, confirm = true }
      if pick.pass then break end
      resolve_gambit(pick.card, q, ctx)
    end
  end
end

-- The battle -------------------------------------------------------------------------------

--- Summon a attacks Summon d: a's Strength above d's Defense destroys d.
local function fight(a, d, blocked)
  local s, df = stat(a, "strength"), stat(d, "defense")
  local destroyed = s > df
  say(string.format("%s (Strength %d) fights %s (Defense %d): %s", a.name, s, d.name, df,
                    destroyed and (d.name .. " is destroyed") or "nothing happens"))
  if destroyed then destroy(d, a) end
  return destroyed
end

local function resolve_attack(p, at)
  local a = at.attacker
  if at.cancelled then
    say(string.format("%s's attack is called off", a.name))
    return
  end
  if not is_revealed(a) or a.controller ~= p then
    say(string.format("%s is no longer there to attack", a.name))
    return
  end
  if at.summon then
    local d = at.summon
    if not is_revealed(d) then
      say(string.format("%s's target is gone", a.name))
      return
    end
    local destroyed = fight(a, d, false)
    emit("after_attack", { attacker = a, target = d, destroyed = destroyed, damage = 0 })
    return
  end
  local q = at.player
  if is_out(q) then return end
  local s = stat(a, "strength")
  local opts = {}
  local most = options.blocks_per_battle   -- (0: a Summon blocks any number of attacks)
  for _, b in ipairs(revealed_summons(q)) do
    if most == 0 or tokens.get(b, "blocked") < most then
      opts[#opts + 1] = { label = "Block with " .. label_of(b), blocker = b }
    end
  end
  opts[#opts + 1] = { label = string.format("Take %d damage", s), take = true }
  local pick = choose { player = q, prompt = string.format("%s (Strength %d) attacks you", a.name, s), options = opts }
  if pick.blocker then
    tokens.add(pick.blocker, "blocked", 1)
    say(string.format("Player %d blocks with %s", q, pick.blocker.name))
    local destroyed = fight(a, pick.blocker, true)
    emit("after_attack", { attacker = a, target = pick.blocker, blocked_by = pick.blocker,
                           destroyed = destroyed, damage = 0 })
  else
    local n = damage_player(q, s, a)
    emit("after_attack", { attacker = a, player = q, destroyed = false, damage = n })
  end
end

--- Target options for an attacker: each opponent still in, and their revealed Summons.
local function target_options(p)
  local opts = {}
  for _, q in ipairs(opponents(p)) do
    opts[#opts + 1] = { label = string.format("Player %d (Stamina %d)", q, stamina(q)), player = q }
    for _, s in ipairs(revealed_summons(q)) do opts[#opts + 1] = { label = label_of(s), summon = s } end
  end
  return opts
end

--- Calls off one declared attack (Fog Wall, through ctx.call_off); the battle's
--- public record says so too.
local function call_off(at)
  at.cancelled = true
  local rec = state.vars.attacks and state.vars.attacks[at.index]
  if rec then rec.off = true end
end

--- The battle is over: its record goes.
local function end_battle()
  state.vars.in_battle = false
  state.vars.declaring = false
  state.vars.attacks = {}
end

--- The turn's battle: declare attacks one by one (each revealed Summon at most once),
--- let the attacked players answer with Gambits, then resolve the attacks in the
--- order declared. Starting a battle uses the turn's battle, even if called off.
---
--- The declared attacks are public: state.vars.attacks keeps them (attacker, target
--- player or Summon, called off, resolved) while the battle lasts, for the bots'
--- evaluation; state.vars.in_battle says a battle is under way, state.vars.declaring
--- that its attacks are still being declared. start_battle begins it; then each call
--- of the main phase, while state.vars.declaring, asks declare_offer's question and
--- carries out the answer with declare_step: which Summon attacks, then (the attacker
--- kept in state.vars.attacker) what it attacks, or the fight; so a fork of the match
--- taken at any of these questions starts there.
function start_battle(p)
  state.vars.battled = true
  state.vars.in_battle = true
  state.vars.declaring = true
  state.vars.attacks = {}
end

--- The attacks declared so far, from their public record, with their cards.
local function declared_attacks()
  local attacks = {}
  for i, rec in ipairs(state.vars.attacks) do
    attacks[i] = { attacker = cards.get(rec.a), player = rec.p ~= 0 and rec.p or nil,
                   summon = rec.s ~= 0 and cards.get(rec.s) or nil, index = i }
  end
  return attacks
end

--- Attacks declared: the attacked players may answer with Gambits, then each attack
--- is resolved in the order declared.
local function fight_battle(p)
  state.vars.declaring = false
  local attacks = declared_attacks()
  if #attacks == 0 then
    end_battle()
    return
  end
  local hit = {}
  for _, at in ipairs(attacks) do hit[at.player or at.summon.controller] = true end
  local defenders = {}
  for _, q in ipairs(opponents(p)) do
    if hit[q] then defenders[#defenders + 1] = q end
  end
  react("battle", { attacks = attacks, active = p, call_off = call_off }, defenders)
  for i, at in ipairs(attacks) do
    if state.over or is_out(p) then break end
    resolve_attack(p, at)
    local rec = state.vars.attacks[i]
    if rec then rec.done = true end
  end
  end_battle()
end

--- A declaration's question: which Summon attacks, or fight with the attacks declared
--- (call the battle off when there are none); once an attacker is picked, what it attacks.
function declare_offer(p)
  local a = state.vars.attacker and cards.get(state.vars.attacker)
  if a then
    return { player = p, prompt = a.name .. " attacks what?", options = target_options(p) }
  end
  local records = state.vars.attacks
  local declared = {}
  for _, rec in ipairs(records) do declared[rec.a] = true end
  local opts = {}
  for _, c in ipairs(revealed_summons(p)) do
    if not declared[c.id] then opts[#opts + 1] = { label = "Attack with " .. label_of(c), attacker = c } end
  end
  opts[#opts + 1] = { label = #records > 0 and string.format("Fight (%d attacks)", #records)
                      or "Call off the battle", done = true }
  return { player = p, prompt = "Battle: which Summon attacks?", options = opts }
end

--- Carries out the answer to declare_offer's question: the attacker picked (kept for
--- the next question), the attack declared, or the fight.
function declare_step(p, pick)
  local a = state.vars.attacker and cards.get(state.vars.attacker)
  if a then
    state.vars.attacker = nil
    local records = state.vars.attacks
    records[#records + 1] = { a = a.id, p = pick.player or 0, s = pick.summon and pick.summon.id or 0 }
    say(string.format("%s attacks %s", a.name, pick.player and ("player " .. pick.player) or label_of(pick.summon)))
    return
  end
  if pick.done then
    fight_battle(p)
    return
  end
  state.vars.attacker = pick.attacker.id
end
