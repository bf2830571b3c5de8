--- The team's progress toward its goal, the same for every seat.
function evaluate(view, seat)
  if view.over then return #view.winners > 0 and 1 or -1 end
  return view.counters.shared.progress / math.max(1, options.goal) - 0.5
end
