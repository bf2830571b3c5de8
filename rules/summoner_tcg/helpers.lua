-- Summoner TCG: the rulebook's words as functions (Stamina, the Field, priming and
-- revealing, destroying, Equipment and Planes) that the phases and the cards share.

-- Card kinds -------------------------------------------------------------------------

function is_summon(c) return cards.has_tag(c, "summon") end
function is_gambit(c) return cards.has_tag(c, "gambit") end
function is_equipment(c) return cards.has_tag(c, "equipment") end
function is_plane(c) return cards.has_tag(c, "plane") end

--- Whether a Plane affects the Fields: from its reveal until it is destroyed, turned face
--- down again or not (the rulebook has a revealed Plane act until it is destroyed); a
--- Plane primed and never revealed does not. flip_down keeps the mark.
function plane_acts(c) return on_field(c) and (c.face_down ~= true or tokens.get(c, "shown") > 0) end

function def_of(c) return cards.def(c) end

-- Players ---------------------------------------------------------------------------

function stamina(p) return counters.get(p, "stamina") end

function is_out(p) return state.vars.out[p] == true end

--- The players still in the game, in seat order from p (p first when it is in).
function living_from(p)
  local out = {}
  for _, q in ipairs(players.from(p)) do
    if not is_out(q) then out[#out + 1] = q end
  end
  return out
end

--- The other players still in the game, in seat order after p.
function opponents(p)
  local out = {}
  for _, q in ipairs(players.from(p)) do
    if q ~= p and not is_out(q) then out[#out + 1] = q end
  end
  return out
end

--- The flow's next player: the next seat still in the game.
function next_player(p)
  local q = players.next(p)
  while is_out(q) and q ~= p do q = players.next(q) end
  return q
end

-- Stamina: every change is a cost, damage or income, and each is kept in the ledger
-- (state.vars.ledger[p]), so a test can check that nothing else moves it.

local function ledger(p) return state.vars.ledger[p] end

--- Whether p can pay n: a payment must leave at least 1 Stamina (paying to 0 would lose).
function can_pay(p, n) return stamina(p) > n end

--- Pays n Stamina for p. upkeep: a Plane's upkeep, kept apart in the ledger too (as
--- upkeep), since it buys no card: the bots' guess of what primed cards cost leaves it out.
function pay(p, n, upkeep)
  if n <= 0 then return end
  if not can_pay(p, n) then error("pay: player " .. p .. " has " .. stamina(p) .. " Stamina, cannot pay " .. n) end
  counters.add(p, "stamina", -n)
  local led = ledger(p)
  led.paid = led.paid + n
  if upkeep then led.upkeep = (led.upkeep or 0) + n end
end

function gain_income(p, n)
  if n <= 0 then return end
  counters.add(p, "stamina", n)
  ledger(p).income = ledger(p).income + n
end

--- Stamina a player starts with beyond options.starting_stamina (options.not_first_stamina,
--- outside the rulebook), kept in the ledger as head_start.
function give_head_start(p, n)
  counters.add(p, "stamina", n)
  ledger(p).head_start = (ledger(p).head_start or 0) + n
end

--- Takes player p out of the game: their Field goes to their graveyard, their
--- Equipment comes off other players' cards; the last player standing wins.
function eliminate(p, why)
  if is_out(p) then return end
  state.vars.out[p] = true
  say(string.format("Player %d is out (%s)", p, why))
  for _, c in ipairs(zones.cards(p, "field")) do to_graveyard(c) end
  local left = living_from(p)
  if #left == 1 then win(left[1], "player " .. left[1] .. " is the last summoner standing") end
end

--- Deals damage to a player's Stamina; 0 or less puts them out.
function damage_player(p, n, source)
  if n <= 0 or is_out(p) then return 0 end
  counters.add(p, "stamina", -n)
  ledger(p).damage = ledger(p).damage + n
  say(string.format("Player %d takes %d damage%s (Stamina %d)", p, n,
                    source and (" from " .. source.name) or "", stamina(p)))
  emit("after_damage", { player = p, amount = n, source = source })
  if stamina(p) <= 0 then eliminate(p, "Stamina " .. stamina(p)) end
  return n
end

-- The Field ---------------------------------------------------------------------------

-- zone key -> whether it is a Field ("field:1", "field:2", ...), worked out once a key:
-- the rules ask this of every card they look at, so it is a lookup, not a string test
local is_field_key = {}

function on_field(c)
  local z = c.zone
  if z == nil then return false end
  local f = is_field_key[z]
  if f == nil then
    f = z:sub(1, 6) == "field:"
    is_field_key[z] = f
  end
  return f
end

--- A card face up on a Field: only such cards act, fight and attach.
function is_revealed(c) return on_field(c) and c.face_down ~= true end   -- (the flag cards.is_face_down reads)

--- A primed card: face down on a Field (in play, but not usable).
function is_primed(c) return on_field(c) and c.face_down == true end

--- Cards on p's Field passing a filter (all when filter is nil).
function field_of(p, filter)
  local out = {}
  for _, c in ipairs(zones.cards(p, "field")) do
    if filter == nil or filter(c) then out[#out + 1] = c end
  end
  return out
end

--- The attacks of a battle (a battle Gambit's ctx.attacks) on player p or on p's
--- Summons, leaving out those called off.
function attacks_on(p, attacks)
  local out = {}
  for _, at in ipairs(attacks) do
    if not at.cancelled and (at.player == p or (at.summon and at.summon.controller == p)) then
      out[#out + 1] = at
    end
  end
  return out
end

function revealed_summons(p)
  return field_of(p, function(c) return is_revealed(c) and is_summon(c) end)
end

--- Every revealed Summon of every player still in, in seat order from p.
function all_revealed_summons(p)
  local out = {}
  for _, q in ipairs(living_from(p or state.active)) do
    for _, c in ipairs(revealed_summons(q)) do out[#out + 1] = c end
  end
  return out
end

--- A card's name as the others may know it.
function shown(c)
  if cards.is_face_down(c) then return "a face-down card" end
  return c.name
end

function stats_text(c)
  return string.format("%d/%d", stat(c, "strength"), stat(c, "defense"))
end

-- Equipment: an attached Equipment stays on its owner's Field with a `host` token
-- naming the card it is attached to (any player's revealed Summon).

function host_of(eq)
  local id = tokens.get(eq, "host")
  if id == 0 then return nil end
  return cards.get(id)
end

--- Whether Equipment eq is revealed and attached to card c (modifiers ask this).
function is_attached_to(eq, c)
  return tokens.get(eq, "host") == c.id and is_revealed(eq)
end

function equipment_on(c)
  local out = {}
  for _, q in ipairs(players.list()) do
    for _, eq in ipairs(zones.cards(q, "field")) do
      if is_equipment(eq) and tokens.get(eq, "host") == c.id then out[#out + 1] = eq end
    end
  end
  return out
end

--- Equipment comes off whatever leaves play or turns face down (it stays in play itself).
local function drop_equipment_of(c)
  for _, eq in ipairs(equipment_on(c)) do
    tokens.remove(eq, "host")
    say(string.format("%s comes off %s", eq.name, c.name))
  end
end

function attach(eq, host)
  tokens.set(eq, "host", host.id)
  say(string.format("Player %d attaches %s to %s (player %d's)", eq.owner, eq.name, host.name, host.controller))
end

--- Revealed Summons an Equipment may go on (its own Field or anyone's).
function attach_targets(eq)
  return all_revealed_summons(eq.owner)
end

-- Planes -------------------------------------------------------------------------

--- The Planes in play other than c (nil: all of them), face up or down, in seat order:
--- those that c, put into play, destroys. Only one is ever in play.
function other_planes(c)
  local out = {}
  for _, q in ipairs(players.list()) do
    for _, o in ipairs(zones.cards(q, "field")) do
      if o ~= c and is_plane(o) then out[#out + 1] = o end
    end
  end
  return out
end

--- The Plane in play, revealed or primed, or nil. A primed (face-down) Plane is in play
--- too: it owes its upkeep and a Plane put into play destroys it; but it acts only once
--- revealed (plane_acting).
function plane_in_play() return other_planes(nil)[1] end

-- The Plane in play that passes test, or nil.
local function plane_that(test)
  for _, o in ipairs(other_planes(nil)) do
    if test(o) then return o end
  end
  return nil
end

--- The Plane in play if it acts (plane_acts: revealed, or revealed once and turned face
--- down since), or nil: the one that changes costs when a card is primed.
function plane_acting() return plane_that(plane_acts) end

--- The Plane in play if it is face up (the one Tide Wisp and Shatter see), or nil.
function plane_revealed() return plane_that(is_revealed) end

--- The Plane in play if every player knows it is one (it acts, or its priming destroyed
--- a Plane: its mark says so), or nil: a face-down Plane primed alone is its owner's secret.
function plane_known()
  return plane_that(function(o) return plane_acts(o) or (type(o.mark) == "table" and o.mark.kind == "plane") end)
end

-- Moving cards ------------------------------------------------------------------------

--- Puts a card in its owner's graveyard face up (from anywhere).
function to_graveyard(c)
  if on_field(c) then drop_equipment_of(c) end
  if tokens.get(c, "host") ~= 0 then tokens.remove(c, "host") end
  tokens.clear(c)
  cards.to_zone(c, c.owner, "graveyard")
  cards.turn_face_up(c)
end

--- Destroys a card in play: to its owner's graveyard; hooks hear on_destroyed.
function destroy(c, by)
  if not on_field(c) then return end
  to_graveyard(c)
  say(string.format("%s (player %d) is destroyed%s", c.name, c.owner, by and (" by " .. by.name) or ""))
  emit("on_destroyed", { card = c, by = by })
end

--- Turns a revealed card face down again (it can be revealed at its owner's next turn).
--- Everyone saw it face up, so everyone still knows which card it is (in_sight).
function flip_down(c)
  drop_equipment_of(c)
  tokens.clear(c)
  cards.turn_face_down(c, true)
  if is_plane(c) then tokens.set(c, "shown", 1) end   -- (it goes on acting: plane_acts)
  say(string.format("Player %d turns %s face down", c.owner, c.name))
end

--- Draws n cards for p; a player who must draw from an empty deck is out.
function draw_cards(p, n)
  for _ = 1, n do
    if zones.count(p, "deck") == 0 then
      eliminate(p, "no card left to draw")
      return
    end
    zones.draw(p, "deck", "hand", 1)
  end
end

local TURN_MARKS = { "used", "boost", "blocked" }

--- A turn's marks (Consume used, boosts until end of turn) are tokens, cleared here.
function clear_turn_marks()
  for _, q in ipairs(players.list()) do
    for _, c in ipairs(zones.cards(q, "field")) do
      for _, t in ipairs(TURN_MARKS) do
        if tokens.get(c, t) > 0 then tokens.remove(c, t) end
      end
    end
  end
end

--- One of each card name from a list (options offer a name once).
function one_of_each(list)
  local seen, out = {}, {}
  for _, c in ipairs(list) do
    if not seen[c.def] then
      seen[c.def] = true
      out[#out + 1] = c
    end
  end
  return out
end

--- How a card shows in an option (name, stats for a Summon).
function label_of(c)
  if is_summon(c) and is_revealed(c) then
    return string.format("%s %s (P%d)", c.name, stats_text(c), c.controller)
  end
  return string.format("%s (P%d)", c.name, c.controller)
end

--- Asks p to pick a player among ps; returns the player.
function pick_player(p, prompt, ps)
  local opts = {}
  for _, q in ipairs(ps) do opts[#opts + 1] = { label = "Player " .. q, player = q } end
  return choose { player = p, prompt = prompt, options = opts }.player
end

--- Asks p to pick a card among cs (non-empty); returns the card.
function pick_card(p, prompt, cs)
  local opts = {}
  for _, c in ipairs(cs) do opts[#opts + 1] = { label = label_of(c), card = c } end
  return choose { player = p, prompt = prompt, options = opts }.card
end

--- The first card of a definition on p's Field, or nil (for scenarios and cards).
function field_card(p, def_id)
  for _, c in ipairs(zones.cards(p, "field")) do
    if c.def == def_id then return c end
  end
  return nil
end

-- `boost` tokens (Rally Cry, Grove Stag) add Strength until the end of the turn.
add_modifier("strength", function(card, value) return value + tokens.get(card, "boost") end)
