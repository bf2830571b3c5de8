-- The duel's evaluation for the greedy and search bots (game.yaml `bots: evaluate:`).
-- It sees only `view` (what one seat may know), `defs`, `options`, the board's shape
-- and the standard libraries: no `state`, `cards` or `rng`.

--- How good the position is for `seat`, from -1 (lost) to 1 (won): the strength and
--- life left of each side's units on the board, with the captains' life counting double.
function evaluate(view, seat)
  if view.over then
    if view.winner == nil then return 0 end
    return view.winner == seat and 1 or -1
  end
  local score = 0
  for _, c in ipairs(view.cards) do
    if c.zone == "board" and not c.face_down then   -- a face-down card shows no def
      local d = defs[c.def]
      local life = (d.life or 1) - (c.tokens.damage or 0)
      local worth = (d.strength or 1) + life
      if d.id == "captain" then worth = worth + life end
      score = score + (c.controller == seat and worth or -worth)
    end
  end
  return math.max(-0.95, math.min(0.95, score / 20))
end
