-- Summoner TCG: the five phases of a turn. Choices that name cards others cannot see
-- (the hand, primed cards) are secret; what becomes public is said aloud.

on("turn_start", function(ev)
  local taken = state.vars.turns_taken
  if taken and taken[ev.player] then taken[ev.player] = taken[ev.player] + 1 end
  state.vars.battled = false
  state.vars.in_battle = false     -- the battle's public record (battle.lua)
  state.vars.declaring = false
  state.vars.attacks = {}
  clear_turn_marks()
end)

-- Revealing -------------------------------------------------------------------------------

--- A Plane revealed destroys any other Plane in play (anyone's, face up or down): one at
--- a time. (A primed Plane already destroyed the others when it was primed, so this finds
--- one only where a scenario or a card puts two Planes in play.)
local function plane_arrives(c)
  for _, o in ipairs(other_planes(c)) do
    say(string.format("%s replaces %s", c.name, is_revealed(o) and o.name or "a face-down Plane"))
    destroy(o, c)
  end
  no_plane_beside(c)   -- (now a Plane everyone knows of: no other face-down card in play is one)
end

--- Offers to attach a revealed Equipment to a revealed Summon (anyone's), or leave it.
--- chosen: the player chose "Attach" from the turn's menu, so the choice is only where
--- (a "leave it" there would go back to the same menu with nothing changed, and a bot
--- that found both as good could go round for ever).
function offer_attach(eq, p, chosen)
  local opts = {}
  for _, s in ipairs(attach_targets(eq)) do opts[#opts + 1] = { label = "Attach to " .. label_of(s), host = s } end
  if #opts == 0 then return end
  if not chosen then opts[#opts + 1] = { label = "Leave " .. eq.name .. " unattached", none = true } end
  local pick = choose { player = p, prompt = eq.name .. ": attach it to which Summon?", options = opts }
  if pick.host then attach(eq, pick.host) end
end

--- Turns a primed card face up and carries out what revealing it does.
function reveal(c, p)
  if is_gambit(c) then
    resolve_gambit(c, p, { window = "reveal" })
    return
  end
  cards.turn_face_up(c)
  say(string.format("Player %d reveals %s", p, is_summon(c) and (c.name .. " " .. stats_text(c)) or c.name))
  if is_plane(c) then plane_arrives(c) end
  local on_reveal = def_of(c).abilities.on_reveal
  if on_reveal then on_reveal(c, p) end
  if is_equipment(c) and is_revealed(c) then offer_attach(c, p) end
  emit("after_reveal", { card = c, player = p })
end

--- Whether a primed card may be revealed in its owner's reveal step (a Gambit only
--- when it can take effect now).
local function can_reveal(c, p)
  if is_gambit(c) then return gambit_ok(c, p, { window = "reveal" }) end
  return true
end

--- Before the draw, the player may reveal any of their primed cards, one at a time: the
--- reveal step's question (game.yaml `offer`), or nil when there is nothing to reveal.
--- The phase repeats (`repeat: true`), one reveal a call, and a fork of the match taken
--- at the question starts there.
function reveal_offer(p)
  if is_out(p) then return nil end
  local primed, opts = field_of(p, is_primed), {}
  for _, c in ipairs(primed) do
    if can_reveal(c, p) then opts[#opts + 1] = { label = "Reveal " .. c.name, card = c } end
  end
  -- asked whenever the player has a primed card, even one that cannot be revealed now (a
  -- Gambit for an opponent's turn), and even with one option (confirm): whether the
  -- question comes must not tell the others what the face-down cards are
  if #primed == 0 then return nil end
  opts[#opts + 1] = { label = "Keep the rest face down", done = true }
  return { player = p, prompt = "Reveal your primed cards", options = opts, secret = true, confirm = true }
end

--- Carries out the reveal step's answer; false once the player keeps the rest face down.
function reveal_phase(p, pick)
  if pick.done then
    say(string.format("Player %d is done revealing", p))
    return false
  end
  reveal(pick.card, p)
  return true
end

-- Drawing and upkeep --------------------------------------------------------------------------

function draw_phase(p)
  if is_out(p) then return end
  if state.turn == 1 and options.opening_turn_gains == 0 then   -- (an option outside the rulebook)
    say(string.format("Player %d takes the first turn without a draw or income", p))
    return
  end
  draw_cards(p, options.draw_per_turn)
  if is_out(p) then return end
  gain_income(p, options.income)
  say(string.format("Player %d draws and gains %d Stamina (%d)", p, options.income, stamina(p)))
end

--- The owner of the Plane in play, revealed or primed, must pay its cost again; only a
--- player who cannot pay (can_pay: it would take them to 0 or below) loses it. A primed
--- Plane is not named: the others learn only that the player has a face-down Plane.
function upkeep_phase(p)
  if is_out(p) then return end
  local plane = plane_in_play()
  if plane == nil or plane.owner ~= p then return end
  local cost = stat(plane, "cost")
  local what = is_revealed(plane) and plane.name or "a face-down Plane"
  if not can_pay(p, cost) then
    say(string.format("Player %d cannot pay %d Stamina for %s", p, cost, what))
    destroy(plane, nil)
    return
  end
  pay(p, cost, true)
  say(string.format("Player %d pays %d Stamina to keep %s", p, cost, what))
end

-- The main phase -------------------------------------------------------------------------------

--- Primes a card from the hand: pay its cost, lay it face down on the Field (it waits for
--- its owner's next reveal step). What was paid is public (everyone sees
--- the Stamina go), and so is the Plane that acts (the only one that changes costs): the
--- card carries both as its mark, so a bot's sample deals it only cards of that cost
--- (fits in evaluate.lua). A primed Plane is in play: it destroys the Plane in play
--- (anyone's, face up or down). Then everyone learns that the new card is a Plane (its
--- mark says `kind = "plane"`), but not which one; a card primed beside a Plane everyone
--- knows of destroys nothing, so it is no Plane, and everyone learns that too (`kind =
--- "other"`), as of every face-down card that a known Plane's priming left in play.
function prime(c, p)
  local cost = stat(c, "cost")
  local plane = plane_acting()
  pay(p, cost)
  cards.turn_face_down(c)          -- (first: it never lies face up on the Field, even for a moment)
  cards.to_zone(c, p, "field")
  local mark = { paid = cost, plane = plane and plane.def or nil }
  say(string.format("Player %d primes a card (Stamina %d)", p, stamina(p)))
  if not is_plane(c) then
    if plane_known() then mark.kind = "other" end
  else
    for _, o in ipairs(other_planes(c)) do
      mark.kind = "plane"
      say(string.format("Player %d's new face-down card is a Plane: it replaces %s", p,
                        is_revealed(o) and string.format("%s (player %d)", o.name, o.owner)
                        or string.format("player %d's face-down Plane", o.owner)))
      destroy(o, nil)   -- (not `by` c: that would name it)
    end
  end
  cards.mark(c, mark)
  if mark.kind == "plane" then no_plane_beside(c) end
end

-- A Plane everyone knows was primed leaves no other Plane in play: every other face-down
-- card in play is no Plane, and everyone knows that too (its mark says so).
function no_plane_beside(c)
  for _, q in ipairs(players.list()) do
    for _, o in ipairs(zones.cards(q, "field")) do
      local m = o.mark
      if o ~= c and is_primed(o) and type(m) == "table" and m.kind == nil then
        cards.mark(o, { paid = m.paid, plane = m.plane, kind = "other" })
      end
    end
  end
end

--- Consume: sacrifice revealed Summons of the card's type, one by one, then the effect.
function use_consume(c, p)
  local kind = def_of(c).consume
  local eaten = 0
  while true do
    local opts = {}
    for _, s in ipairs(revealed_summons(p)) do
      if s ~= c and cards.has_tag(s, kind) then opts[#opts + 1] = { label = "Sacrifice " .. label_of(s), card = s } end
    end
    if eaten > 0 or #opts == 0 then
      opts[#opts + 1] = { label = string.format("Done (%d sacrificed)", eaten), done = true }
    end
    local pick = choose { player = p, prompt = c.name .. ": Consume which " .. kind .. "?", options = opts }
    if pick.done then break end
    destroy(pick.card, c)
    eaten = eaten + 1
  end
  if eaten > 0 then def_of(c).abilities.consume(c, p, eaten) end
end

--- Whether c's Consume has something to eat among mine (p's revealed Summons).
local function consumable(c, mine)
  local kind = def_of(c).consume
  if kind == nil or def_of(c).abilities.consume == nil then return false end
  for _, s in ipairs(mine) do
    if s ~= c and cards.has_tag(s, kind) then return true end
  end
  return false
end

local function main_options(p)
  local opts = {}
  for _, c in ipairs(one_of_each(zones.cards(p, "hand"))) do
    local cost = stat(c, "cost")
    if can_pay(p, cost) then
      opts[#opts + 1] = { label = string.format("Prime %s (cost %d)", c.name, cost), prime = c }
      if is_gambit(c) and gambit_ok(c, p, { window = "main" }) then
        opts[#opts + 1] = { label = string.format("Play %s (cost %d)", c.name, cost), play = c }
      end
    end
  end
  local mine = revealed_summons(p)
  if not state.vars.battled and #mine > 0 then
    opts[#opts + 1] = { label = "Battle", battle = true }
  end
  local can_attach = nil   -- (whether any Summon is there to attach to: asked once)
  for _, c in ipairs(field_of(p, is_revealed)) do
    if is_summon(c) and tokens.get(c, "used") == 0 and consumable(c, mine) then
      opts[#opts + 1] = { label = string.format("Use %s: Consume %s", c.name, def_of(c).consume), consume = c }
    end
    if can_attach == nil and is_equipment(c) and tokens.get(c, "host") == 0 then
      can_attach = #attach_targets(c) > 0
    end
    if can_attach and is_equipment(c) and tokens.get(c, "host") == 0 then
      opts[#opts + 1] = { label = "Attach " .. c.name, attach = c }
    end
    opts[#opts + 1] = { label = "Turn " .. c.name .. " face down", flip = c }
  end
  opts[#opts + 1] = { label = "End turn", done = true }
  return opts
end

--- Play cards, prime cards, battle once, use abilities, in any order, until the turn ends:
--- the main phase's question (game.yaml `offer`), one choice a call (`repeat: true`), or a
--- battle's declaration while its attacks are being declared (battle.lua); nil once the
--- player is out.
function main_offer(p)
  if is_out(p) or state.over then return nil end
  if state.vars.declaring then return declare_offer(p) end
  -- (confirm: asked even when ending the turn is all there is, or no question would tell
  -- the others that no card in the hand is affordable)
  return { player = p, prompt = string.format("Your turn (Stamina %d)", stamina(p)), options = main_options(p),
           secret = true, confirm = true }
end

--- Carries out the main phase's answer; false once the player ends the turn.
function main_phase(p, pick)
  if state.vars.declaring then
    declare_step(p, pick)
    return true
  end
  if pick.done then
    say(string.format("Player %d ends the turn", p))
    return false
  elseif pick.prime then prime(pick.prime, p)
  elseif pick.play then resolve_gambit(pick.play, p, { window = "main" })
  elseif pick.battle then start_battle(p)
  elseif pick.consume then
    tokens.set(pick.consume, "used", 1)
    say(string.format("Player %d uses %s's Consume", p, pick.consume.name))
    use_consume(pick.consume, p)
  elseif pick.attach then offer_attach(pick.attach, p, true)
  elseif pick.flip then flip_down(pick.flip)
  end
  return true
end

--- The others, in seat order after the player, may spring Gambits as the turn ends.
function end_phase(p)
  if is_out(p) then return end
  react("turn_end", { active = p }, opponents(p))
end
