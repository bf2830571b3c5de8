function setup() end

-- Other endings, for the engine's tests (option `ending`): what end_game is given.
local ENDINGS = {
  pair = { 3, 1 }, nobody = {}, two = { 2 }, plain_two = 2, twice = { 1, 1 }, stranger = { 1, 7 },
  keyed = { first = 1 }, text = "1",
}

--- Each player pushes or rests; the round counts when everyone pushed.
function act_phase(round)
  local all = true
  for _, p in ipairs(players.list()) do
    local pick = choose { player = p, prompt = "Push or rest?", options = { "Rest", "Push" } }
    if options.ending == "everyone" then end_game(players.list()) end
    if options.ending == "draw" then end_game(nil) end
    if options.ending == "option" then end_game(options.team) end   -- (a read-only list)
    if options.ending == "card" then end_game(pick) end
    if options.ending ~= "rules" then end_game(ENDINGS[options.ending]) end
    if pick.label ~= "Push" then all = false end
  end
  if all then counters.add("progress", 1) end
end

function after_round(round)
  if round < options.rounds then return end
  if counters.get("progress") >= options.goal then
    end_game(players.list(), "the team made it")
  end
  end_game({}, "the team fell short")
end
