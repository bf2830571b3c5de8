-- Setting up a position directly, for tests and scenario files: runs after the
-- game's own setup and before the first turn.
local E = ...

local S = {}
E.scenario_api = S

local function fail(msg) error(msg, 3) end

--- Takes a card out of the game (it stays in the state, in no zone).
function S.remove(c)
  c = E.card_arg(c, "scenario.remove")
  local spare = E.state.zones["_removed"]
  if not spare then
    spare = {}
    E.state.zones["_removed"] = spare
  end
  E.cards.to_zone_key(c, "_removed")
end

--- Removes every card from the board.
function S.clear_board()
  for _, c in ipairs(E.cards.on_board()) do S.remove(c) end
end

--- Removes every card of a zone.
function S.empty(name, p)
  for _, c in ipairs(E.zones.cards(name, p)) do S.remove(c) end
end

--- Puts a new card on a space: owner and controller p, with tokens {name=count}.
function S.place(def_id, p, space, tokens)
  if not E.board.is_empty(space) then
    local c = E.board.card_at(space)
    if not c then fail("scenario.place: no space called " .. tostring(space)) end
    S.remove(c)
  end
  local c = E.cards.create(def_id, p)
  E.cards.place(c, space)
  for k, v in pairs(tokens or {}) do E.tokens.add(c, k, v) end
  return c
end

--- Puts new cards on top of a zone, in order (the last given ends on top).
function S.add(name, p, def_ids)
  local out = {}
  for i, id in ipairs(def_ids) do out[i] = E.cards.create(id, p, name, p) end
  return out
end

function S.set_counter(name, p, v) E.counters.set(name, p, v) end

--- The player whose turn comes first, and the phase that turn starts in.
function S.start(p, phase)
  E.state.active = p
  if phase then
    local ok = false
    for _, ph in ipairs(E.game.flow.phases) do if ph.id == phase then ok = true end end
    if not ok then fail("scenario.start: no phase called " .. tostring(phase)) end
  end
  E.start_phase = phase
end

--- Results the generator gives next, in order, before it draws at random again
--- (a die roll takes the face's number; a shuffle takes one number per swap).
function S.force(values)
  for _, v in ipairs(values) do E.forced[#E.forced + 1] = v end
end
