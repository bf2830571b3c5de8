-- Duel: the example game of docs/writing-a-game.md and docs/cookbook.md (not a shipped
-- game). Two players take turns on a 5x5 grid. A turn has four phases: play a card
-- from hand, move a unit, attack with a unit, draw. Destroy the other captain to win.

--- The game's start: each player's captain and a scout on their back row, a shuffled
--- deck (options.deck), three cards in hand.
function setup()
  for _, p in ipairs(players.list()) do
    local row = back_row(p)
    cards.place(cards.create("captain", p), "c" .. row)
    cards.place(cards.create("scout", p), "b" .. row)
    for _, id in ipairs(options.deck) do cards.create(id, p, p, "deck") end
    zones.shuffle(p, "deck")
    zones.draw(p, "deck", "hand", 3)
  end
end

-- A rules listener: every turn, its player gains a coin (listeners run before card hooks).
on("turn_start", function(ev)
  counters.add(ev.player, "coins", 1)
end)

-- An attachment gives its host the `bonus` of its definition: a rules modifier of the
-- host's strength (an attached card is not in play, so its own modifiers would not run).
add_modifier("strength", function(card, value)
  for _, gear in ipairs(cards.attached(card)) do
    value = value + (cards.def(gear).bonus or 0)
  end
  return value
end)

--- The row a player's cards start on: 1 for player 1, 5 for player 2.
function back_row(p)
  return p == 1 and 1 or 5
end

--- Whether a card is a unit (captains are units too).
function is_unit(c)
  return cards.has_tag(c, "unit") or cards.has_tag(c, "captain")
end

--- Where a card is, for labels: "Scout at b2".
function where(c)
  return c.name .. " at " .. c.space
end

--- Puts n damage on a card; at its life or more it is destroyed.
function deal_damage(c, n, source)
  if tokens.add(c, "damage", n) >= stat(c, "life") then destroy(c, source) end
end

--- Removes a card from the board to its owner's discard (with what is attached to it).
--- Destroying a captain ends the game.
function destroy(c, source)
  local space = c.space
  for _, gear in ipairs(cards.attached(c)) do cards.to_zone(gear, gear.owner, "discard") end
  tokens.clear(c)
  cards.to_zone(c, c.owner, "discard")
  say(describe(c) .. " is destroyed")
  emit("on_destroyed", { card = c, space = space, source = source })
  if cards.has_tag(c, "captain") then win(players.next(c.owner), "destroyed the other captain") end
end

--- Phase play: the player may summon a unit onto an empty space of their back row or
--- attach an equipment to one of their units, paying its cost in coins.
function play_phase(p)
  local opts = { { label = "Pass" } }
  local coins = counters.get(p, "coins")
  for _, c in ipairs(zones.cards(p, "hand")) do
    local cost = stat(c, "cost")
    if cost <= coins and cards.has_tag(c, "unit") then
      for _, s in ipairs(board.spaces_in(p == 1 and "south" or "north")) do
        if board.is_empty(s) then opts[#opts + 1] = { label = "Summon " .. c.name .. " at " .. s, card = c, to = s } end
      end
    elseif cost <= coins and cards.has_tag(c, "equipment") then
      for _, u in ipairs(cards.on_board(function(u) return u.controller == p end)) do
        opts[#opts + 1] = { label = "Attach " .. c.name .. " to " .. where(u), card = c, host = u }
      end
    end
  end
  -- asked even when passing is all there is (confirm): the options come from the hand, so a
  -- question asked only sometimes would tell the other player whether it holds a card to play
  local pick = choose { player = p, prompt = "Play a card?", options = opts, confirm = true }
  if not pick.card then return end
  counters.spend(p, "coins", stat(pick.card, "cost"))
  if pick.host then
    cards.attach(pick.card, pick.host)
    say(pick.card.name .. " is attached to " .. where(pick.host))
  else
    cards.place(pick.card, pick.to)
  end
end

--- Phase move: the player may move one unit to an empty space next to it.
function move_phase(p)
  local opts = { { label = "Don't move" } }
  for _, c in ipairs(cards.on_board(function(c) return c.controller == p end)) do
    for _, s in ipairs(board.neighbors(c.space)) do
      if board.is_empty(s) then opts[#opts + 1] = { label = "Move " .. where(c) .. " to " .. s, card = c, to = s } end
    end
  end
  local pick = choose { player = p, prompt = "Move a unit?", options = opts }
  if not pick.card then return end
  local from = pick.card.space
  cards.place(pick.card, pick.to)
  emit("after_move", { card = pick.card, from = from, to = pick.to })
end

--- Phase attack: the player may attack an enemy next to one of their units.
function attack_phase(p)
  local opts = { { label = "Don't attack" } }
  for _, c in ipairs(cards.on_board(function(c) return c.controller == p and stat(c, "strength") > 0 end)) do
    for _, s in ipairs(board.neighbors(c.space)) do
      local t = board.card_at(s)
      if t and t.controller ~= p then
        opts[#opts + 1] = { label = where(c) .. " attacks " .. where(t), card = c, target = t }
      end
    end
  end
  local pick = choose { player = p, prompt = "Attack?", options = opts }
  if pick.card then attack(pick.card, pick.target) end
end

--- One attack: a d6 for each point of strength; each hit symbol is a hit. The
--- defender may react before the damage is dealt.
function attack(attacker, target)
  local faces = dice.roll("d6", stat(attacker, "strength"))
  local hits = dice.count(faces, "hit")
  say(string.format("%s rolls %s -> %d hit(s)", attacker.name, dice.labels(faces), hits))
  local ev = emit("before_damage", { card = target, hits = hits, source = attacker })
  if ev.hits > 0 then react(target.controller, ev) end
  if ev.hits > 0 then deal_damage(target, ev.hits, attacker) end
end

--- A reaction in the other player's turn: the defending player may play a card with a
--- `react` ability from their hand; it may change the event (ev.hits).
function react(p, ev)
  local opts, named = { { label = "No reaction" } }, {}
  for _, c in ipairs(zones.cards(p, "hand")) do
    -- one option a name: two alike would be numbered ("Play Parry #2"), telling the
    -- attacker that the hand holds two
    if cards.def(c).abilities.react and not named[c.name] then
      named[c.name] = true
      opts[#opts + 1] = { label = "Play " .. c.name, card = c }
    end
  end
  -- asked even with nothing to play (confirm): asked only when the hand holds a
  -- reaction, the question would tell the attacker so
  local pick = choose { player = p, prompt = string.format("%s takes %d hit(s): react?", ev.card.name, ev.hits),
                        options = opts, confirm = true }
  if not pick.card then return end
  cards.def(pick.card).abilities.react(pick.card, p, ev)
  cards.to_zone(pick.card, p, "discard")
  say(string.format("Player %d plays %s: %d hit(s) left", p, pick.card.name, ev.hits))
end

--- Phase draw: the player draws a card; after options.max_turns turns the game is a draw.
function draw_phase(p)
  zones.draw(p, "deck", "hand", 1)
  if state.turn >= options.max_turns then end_game(nil, "the turn limit") end
end
