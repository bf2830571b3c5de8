---@meta
-- The engine's Lua API as a game or card script sees it, in Lua language server
-- (LuaLS / LuaCATS) annotations. Editors read this file through .luarc.json at the
-- repository's root; `summon docs` builds docs/api.md from it, and
-- tests/test_docs.py fails when a name here is missing from the sandbox (or the
-- sandbox has a name not here), or when docs/api.md is stale.
--
-- Format (parsed line by line by engine/docs.py):
--   `--- text`            what the function does (first line: its summary)
--   `---@param n T text`  an argument; `n?` for an optional one
--   `---@return T name text`
--   `--- Errors: text`    when the function raises (our own convention)
--   `--- Example: code`   one line of Lua that uses it (our own convention; the
--                         docs test compiles every example)
--   `---@class`/`---@field`, `---@alias`, `---@type` as LuaLS defines them.
-- Nothing here runs: the bodies are empty. The examples use the names of the docs'
-- example game docs/examples/rules/duel (a scout on c3, a d6 with "hit" faces, coins,
-- the regions north and south); the test runs each one there, with `c`, `a`, `b`,
-- `knight`, `sword` and `faces` set (tests/test_docs.py EXAMPLE_PRELUDE).

-------------------------------------------------------------------------------
-- Plain data the engine hands to scripts
-------------------------------------------------------------------------------

---@alias Player integer A seat number, 1 to players.count().
---@alias Space string The name of a board space ("c3" on a grid, a node's name on a graph).
---@alias CardId integer A card's id: the order in which cards were created, from 1.
---@alias CardArg Card|CardId A card, or its id: every function taking a card takes either.

--- A card in the match: plain data in state.cards. Read its fields freely; change
--- where it is only through the cards API, its tokens through tokens.*, its owner
--- through cards.set_owner; set `controller`, `base` and fields of the game's own
--- directly (`c.controller = p`, `c.base = {strength = 3}`).
---@class Card
---@field id CardId Its id.
---@field def string The id of its definition (defs[card.def]).
---@field name string Its definition's name.
---@field owner Player|nil Who owns it (where it goes back to); nil for a card nobody owns (cards.create with owner nil).
---@field first_owner Player|0|nil Its owner before cards.set_owner first changed it (0: it had none, as a shared pile's card), or nil.
---@field controller Player|nil Who controls it now: its owner when made (nil for a card nobody owns); the rules set it (`c.controller = p`), and cards.set_owner leaves it (but for a card nobody controlled). A card nobody controls hears its hooks after every player's cards.
---@field tokens table<string, integer> Named counts on it (damage, wounds, ...); read it, change it through tokens.*.
---@field under CardId[] Ids of the cards attached under it, oldest first; read it, change it through cards.attach.
---@field zone string|nil Where it is: a zone key ("hand:1", "discard"), "board", "under", or nil.
---@field space Space|nil Its space while on the board.
---@field host CardId|nil The card it is attached under.
---@field face_down boolean|nil True while face down.
---@field seen_by Player[]|nil Players it has been revealed to.
---@field seen_open Player[]|nil Those of seen_by whom its owner saw it shown to, seeing which card it was (the owner's view lists only those).
---@field down_ref integer|nil The stand-in number others know it by while face down.
---@field mark any What every player knows of it while face down (cards.mark), or nil.
---@field base table<string, number>|nil This card's own stat values, overriding its definition's; the rules set it (`c.base = {strength = 3}`).

--- A card definition: the card's YAML (its id, name, tags, copies, text, the
--- game's own fields) with its Lua functions. Read-only.
---@class CardDef
---@field id string
---@field name string
---@field tags string[]
---@field tagset table<string, boolean> The same tags as a set: tagset.unit is true (cards.has_tag reads it).
---@field set string The id of the card set that defines it.
---@field copies integer
---@field text string|nil
---@field hooks table<string, fun(self: Card, ev: Event)> Event hooks: function(card, ev).
---@field modifiers table<string, fun(self: Card, card: Card, value: number): number> Stat modifiers.
---@field abilities table<string, function> Abilities the game's rules call by name.

--- What state.players[p] holds.
---@class PlayerInfo
---@field seat Player
---@field set string|nil The card set (faction) the seat plays, if any.
---@field name string

--- A rolled face: dice.roll returns a list of these.
---@class Face
---@field index integer The face's number on its die (1-based, the order in game.yaml).
---@field symbols table<string, integer> How many of each symbol the face shows.
---@field label string The symbols joined by "+" ("melee+special").

--- An event as hooks and listeners receive it: the table given to emit, plus `event`.
---@class Event
---@field event string The event's name.
---@field card Card|nil The card it is about, by convention (hooks also hear it on this card once it left play).
---@field player Player|nil The player it is about, by convention.
---@field [string] any Whatever else the emitter put in it.

--- An option of a choice: a label, plus anything the rules want back.
---@class Option
---@field label string What the player sees and the saved match records (at most 500 characters).
---@field warn string|nil Why a player might not mean it ("Ret-Talus would attack your own Undead Carrier"): the terminal marks the option and asks to confirm it.
---@field [string] any

--- What choose takes.
---@class ChooseRequest
---@field player Player Who decides.
---@field prompt string|nil The question (default "Choose").
---@field options (Option|string)[] The legal answers (1 to 5,000).
---@field confirm boolean|nil Ask even when there is a single option.
---@field secret boolean|nil Only the asked player learns the answer; the others see that a choice was made. Without it the question is public: every seat is told its prompt and the answer, so neither may hold what others cannot see.

--- A card sighted by board.line_of_sight.
---@class Sighting
---@field card Card
---@field space Space
---@field distance integer

--- A space reached by board.reach.
---@class Reached
---@field space Space
---@field path Space[] A shortest path to it, not counting the start.

--- The match's state: plain data, all of a match's data (a fork copies this and
--- nothing else). The rules may read everything and keep their own data in `vars`.
---@class State
---@field game string The game's id.
---@field seed integer The match's seed.
---@field rng integer[] The generator's state (draw through rng.*, never read this).
---@field players PlayerInfo[] One entry per seat.
---@field cards Card[] Every card created, by id.
---@field zones table<string, CardId[]> Zone key ("hand:1", or a shared zone's name) -> ids, bottom to top.
---@field spaces table<Space, CardId> Occupied spaces -> the id of the card there.
---@field counters table Player -> name -> value, and `shared` -> name -> value: use counters.*.
---@field turn integer Turns begun so far (turns games): the engine adds 1 at each turn's start.
---@field round integer Rounds begun so far (rounds games): the engine adds 1 at each round's start.
---@field active Player Whose turn it is (turns games: the engine sets it from next_player). In a rounds game the rules set it.
---@field phase string|nil The id of the phase running now (nil between turns and between rounds).
---@field over boolean True once the game has ended.
---@field winner Player|nil The winner once over (nil: a draw, or a team of several or none).
---@field winners Player[]|nil The team end_game named (end_game({1, 3}); {}: nobody won), in order; nil when a single winner or a draw ended it.
---@field result string|nil Why the game ended.
---@field vars table The rules' own public data (state.vars[KEY]); display.marks reads a map from here.
---@field turned_down integer|nil How many stand-in numbers have been handed out: for cards turned face down, and new ones at a shuffle or a move some seat could not follow.
---@field mixed table[]|nil The places each seat lost track of a card between, as {seat, place, place}: a bot's sample deals a hidden card among the places so joined (the engine's; not in a view).

--- What one seat may know of the match: a copy of the state without `seed`, `rng`, `mixed`
--- and `turned_down`, with only the cards it may see (a card's `seen_by` names only the seat
--- itself, but to the card's owner, who also reads those it saw it shown to, seeing which card it was). A bot's `evaluate(view, seat)` (game.yaml
--- `bots: evaluate:`) and the REPL's `lua` command get this, never the state.
---@class View
---@field game string
---@field players PlayerInfo[]
---@field cards ViewCard[] The cards the seat may see (in a zone it may see, on the board, under a card, or revealed to it), a list in order of id (not indexed by id: look for `c.id`); face-down cards it may not see come last, as stand-ins.
---@field zones table<string, ViewZone> Zone key -> what the seat sees of it; a `secret` zone is left out.
---@field spaces table<Space, CardId|string> Occupied spaces -> the id (or stand-in id) of the card there.
---@field counters table As in the state: player -> name -> value, and `shared`.
---@field turn integer
---@field round integer
---@field active Player
---@field phase string|nil
---@field over boolean
---@field winner Player|nil
---@field winners Player[]|nil
---@field result string|nil
---@field vars table The rules' public data, as in the state.

--- A zone as a view shows it.
---@class ViewZone
---@field count integer How many cards it holds.
---@field cards (CardId|string)[]|nil Their ids, bottom to top, when the seat may see them.

--- A card as a view shows it: a Card, or for a face-down card the seat may not see, only
--- where it is: {id = "?n", face_down = true, owner, controller, zone, space, host, under,
--- mark}.
---@class ViewCard: Card

-------------------------------------------------------------------------------
-- Globals
-------------------------------------------------------------------------------

--- The running match's state (rules scripts and the chunks that read through to them).
---@type State
state = {}

--- The game's options from game.yaml's `options:` (read-only); reading an option
--- the game does not declare is an error.
--- Example: local last = options.max_turns
---@type table<string, any>
options = {}

--- Card definitions by id (read-only); an unknown id is an error.
--- Example: local d = defs["scout"]
---@type table<string, CardDef>
defs = {}

--- The game's card sets by id (read-only): each set's YAML, with `cards` the ids of its cards.
--- Example: local set = sets[players.info(1).set]
---@type table<string, table>
sets = {}

--- Asks a player to pick one of a list of options and returns the option picked
--- (the table given, or {label=...} for a string). A single option is taken
--- without asking unless `confirm = true`. The match pauses here until the
--- player answers; reactions in another player's turn are a choose for that player.
--- Errors: outside the running match (at load time, from eval); no such player; an empty options list; an option without a label; more than 5,000 options; a label over 500 characters or not UTF-8.
--- Example: local o = choose { player = 1, prompt = "Pick", options = { "Yes", "No" } }
---@param req ChooseRequest
---@return Option picked The option picked.
function choose(req) end

--- Emits an event: the rules' listeners (`on`) run first, in the order they were
--- registered, then the hook of that name on every card in play (the active
--- player's cards first, then the others in seat order; each in play order), then
--- on ev.card if it is not in play (it has just left play, or is in a hand or deck). Hooks may change ev. Effects that the
--- listeners and hooks deferred (`defer`) resolve last, before emit returns.
--- Errors: an event the game does not declare; events triggering each other deeper than limits.trigger_depth.
--- Example: local ev = emit("after_move", { card = c, from = "a1", to = "a2" })
---@param name string An event the game declares under `hooks:`.
---@param ev table|nil The event's data (a fresh table when nil).
---@return Event ev The same table, after every hook.
function emit(name, ev) end

--- Queues an effect that the event being emitted sets off, to resolve once every
--- listener and hook of that event has run (before emit returns). Effects deferred
--- during one event happen at the same time: with game.yaml `effects: {order:
--- active_player}` and two or more pending, the player whose turn it is chooses
--- which resolves next (options are the labels; effects with one label are
--- taken as alike and offered once); with `order: fixed` (the
--- default) they resolve in the order deferred. Effects deferred while one
--- resolves come right after it. Outside any event, fn runs at once. fn should
--- check again when it runs that it still can happen.
--- Errors: fn not a function; label not text.
--- Example: defer(function() deal_damage(c, 1) end, "Scout at c3 deals 1 damage", c)
---@param fn fun() The effect.
---@param label string What the choice of order shows for it.
---@param card Card|nil The card whose effect it is (named by errors in it).
function defer(fn, label, card) end

--- Registers a rules-level listener for an event; it runs before any card's hook.
--- Only as the rules load (or in a scenario's setup): a listener belongs to the
--- runtime, not to one match, so a card's script or the console cannot add one.
--- Errors: an event the game does not declare; called once the rules have loaded.
--- Example: on("turn_start", function(ev) say("turn of " .. ev.player) end)
---@param name string An event the game declares.
---@param fn fun(ev: Event)
function on(name, fn) end

--- A card's stat: its printed value (the card's own `base` override, else its
--- definition's field, else the stat's default in game.yaml), passed through the
--- rules' modifiers (add_modifier, in order), then through the modifier of that
--- stat on every card in play (in play order), then raised to the stat's `min` and
--- lowered to its `max` if game.yaml gives them (once, after every modifier, so the
--- order the modifiers run in cannot change the result).
--- A card's other fields are read from its definition (cards.def), not through stat.
--- Errors: not a card; a stat the game does not declare; a modifier returning a non-number.
--- Example: local s = stat(c, "strength")
---@param c CardArg
---@param name string A stat the game declares under `stats:`.
---@return number value
function stat(c, name) end

--- Registers a rules-level modifier of a stat: fn(card, value) returns the new value.
--- Rules modifiers run before the cards' own modifiers. Only as the rules load, as on().
--- Errors: a stat the game does not declare; fn not a function; called once loaded.
--- Example: add_modifier("strength", function(card, v) return v + tokens.get(card, "rage") end)
---@param stat_name string A stat the game declares under `stats:`.
---@param fn fun(card: Card, value: number): number
function add_modifier(stat_name, fn) end

--- Ends the game with player p as the winner.
--- Errors: no such player; the game is already over.
--- Example: win(1, "holds the centre")
---@param p Player
---@param reason string|nil Why (default "player p wins"); a reason that names no winner as a player follows who won: "player 1 wins (holds the centre)".
function win(p, reason) end

--- Ends the game; winner nil is a draw. Nothing after it runs. A list of players is a
--- team's win: each of them wins and the others lose (a cooperative game's players
--- win together, end_game(players.list()); an empty list, {}, is a game nobody won).
--- Errors: a winner that is not a player, or a list with one that is not or one twice; a reason that is not text.
--- Example: end_game(nil, "a tie")
---@param winner Player|Player[]|nil
---@param reason string|nil Why, as win's: after who won unless it names each winner as a player.
function end_game(winner, reason) end

--- Sends a message to every seat (the log, the terminal; scenarios match it with `said`),
--- or with p to that player only: the others' log has nothing of it (a designer reads it as
--- "(to P2) ...", and so does a scenario's `said`: "(to player 2) ...").
--- Long messages are cut at 4,000 characters. `print` does the same.
--- Errors: p that is not a player of the match.
--- Example: say("Player 1 draws two cards")
---@param text any
---@param p? Player Only this player reads it (what they alone learned: a total of cards they were shown).
function say(text, p) end

--- A card's name and id as text: "Scout (card 7)".
--- Errors: not a card.
--- Example: say(describe(c) .. " is destroyed")
---@param c CardArg
---@return string
function describe(c) end

--- table.unpack, also as a global.
--- Example: local a, b = unpack({ 1, 2 })
---@param list table
---@param i integer|nil
---@param j integer|nil
---@return any ...
function unpack(list, i, j) end

-------------------------------------------------------------------------------
-- board
-------------------------------------------------------------------------------

--- The board declared in game.yaml: a grid or a graph of spaces, with regions. A region
--- whose `player_counts` does not list this match's number of players is not on it, nor
--- are its spaces or the links to them.
---@class board
board = {}

--- Every space on this match's board, in a stable order (on a grid: by row, then column).
--- Example: local all = board.spaces()
---@return Space[]
function board.spaces() end

--- Whether a space of that name exists (the one board call that does not raise on an unknown space).
--- Example: if board.exists("a9") then say("a9 exists") end
---@param s string
---@return boolean
function board.exists(s) end

--- Grid coordinates of a space (x = column from 1, y = row from 1); nil on a graph.
--- Errors: no such space.
--- Example: local x, y = board.xy("c3")
---@param s Space
---@return integer|nil x
---@return integer|nil y
function board.xy(s) end

--- The space at grid coordinates, or nil off the board (coordinates are not names).
--- Errors: x or y not a number (numeric text included).
--- Example: local s = board.space_at(3, 1)
---@param x integer
---@param y integer
---@return Space|nil
function board.space_at(x, y) end

--- The grid's width and height (nil on a graph).
--- Example: local w, h = board.size()
---@return integer|nil width
---@return integer|nil height
function board.size() end

--- The spaces adjacent to s (on a grid, by the board's `adjacency`; on a graph, its links).
--- Errors: no such space.
--- Example: local ns = board.neighbors("c3")
---@param s Space
---@return Space[]
function board.neighbors(s) end

--- Whether two spaces are adjacent.
--- Errors: no such space.
--- Example: local near = board.is_adjacent("c3", "c4")
---@param a Space
---@param b Space
---@return boolean
function board.is_adjacent(a, b) end

--- Steps between two spaces, counting only through adjacency (math.huge between
--- spaces of a graph that no path joins).
--- Errors: no such space.
--- Example: local d = board.distance("a1", "c3")
---@param a Space
---@param b Space
---@return integer|number
function board.distance(a, b) end

--- Spaces within n steps of s, not counting s.
--- Errors: no such space.
--- Example: local around = board.within("c3", 2)
---@param s Space
---@param n integer
---@return Space[]
function board.within(s, n) end

--- The region a space belongs to, or nil.
--- Errors: no such space.
--- Example: local r = board.region("c3")
---@param s Space
---@return string|nil
function board.region(s) end

--- Every region's name on this match's board, sorted.
--- Example: local names = board.regions()
---@return string[]
function board.regions() end

--- A region's definition from game.yaml (its spaces and any facts the game gives it). Read it, do not change it.
--- Errors: no such region.
--- Example: local bonus = board.region_info("north").bonus
---@param r string
---@return table
function board.region_info(r) end

--- The spaces of a region, in board order.
--- Errors: no such region.
--- Example: local home = board.spaces_in("north")
---@param r string
---@return Space[]
function board.spaces_in(r) end

--- The straight directions of a grid as {dx, dy} pairs (empty on a graph).
--- Example: for _, d in ipairs(board.directions()) do say(d[1] .. "," .. d[2]) end
---@return integer[][]
function board.directions() end

--- The card on a space, or nil.
--- Errors: no such space.
--- Example: local c = board.card_at("c3")
---@param s Space
---@return Card|nil
function board.card_at(s) end

--- Whether no card is on a space.
--- Errors: no such space.
--- Example: if board.is_empty("c3") then say("free") end
---@param s Space
---@return boolean
function board.is_empty(s) end

--- Spaces from s in direction (dx, dy), up to n steps, stopping at the board's edge.
--- Errors: no such space; dx and dy both 0.
--- Example: local line = board.ray("a1", 1, 0, 3)
---@param s Space
---@param dx integer
---@param dy integer
---@param n integer
---@return Space[]
function board.ray(s, dx, dy, n) end

--- Cards reachable along straight lines from s within n spaces, where every space
--- between is empty or holds a card that passable(card) lets through.
--- Errors: no such space.
--- Example: local seen = board.line_of_sight("c3", 3)
---@param s Space
---@param n integer
---@param passable (fun(card: Card): boolean)|nil
---@return Sighting[]
function board.line_of_sight(s, n, passable) end

--- Every path of 1..steps moves from s: a path goes on through a space where
--- can_pass(space) and may end where can_stop(space) (both default to "empty").
--- s itself is always passed and stopped on, whatever the two say (its card is the
--- one moving), so a path may step out and back. Each path is a list of spaces, in a
--- stable order.
--- Errors: no such space.
--- Example: local ps = board.paths("c3", 2)
---@param s Space
---@param steps integer
---@param can_pass (fun(s: Space): boolean)|nil
---@param can_stop (fun(s: Space): boolean)|nil
---@return Space[][]
function board.paths(s, steps, can_pass, can_stop) end

--- The spaces reachable from s in 1..steps moves, each with a shortest path
--- (same can_pass/can_stop as board.paths), in a stable order. s is among them
--- when a card can step out and back.
--- Errors: no such space.
--- Example: for _, r in ipairs(board.reach("c3", 2)) do say(r.space) end
---@param s Space
---@param steps integer
---@param can_pass (fun(s: Space): boolean)|nil
---@param can_stop (fun(s: Space): boolean)|nil
---@return Reached[]
function board.reach(s, steps, can_pass, can_stop) end

-------------------------------------------------------------------------------
-- cards
-------------------------------------------------------------------------------

--- Cards: create them, move them between zones, the board and under other cards.
--- Zones are named subject first: (p, zone) for a player's own zone, (zone) for a
--- shared one (scope: shared in game.yaml).
---@class cards
cards = {}

--- Creates a new card from a definition, owned and controlled by `owner`: in no zone,
--- or on top of a zone: cards.create(def, owner, p, zone) for a player's own zone,
--- cards.create(def, owner, zone) for a shared one. Owner nil makes a card nobody owns
--- or controls (a shared pile's: a market's, an event deck's), which a bot's sample deals
--- only among the hidden cards that had no owner at first.
--- Errors: no such card definition, player or zone.
--- Example: local c = cards.create("scout", 1, 1, "hand")
---@param def string A card definition's id.
---@param owner Player|nil
---@param p Player|string|nil The zone's player, or a shared zone's name.
---@param zone string|nil The zone, when p is a player.
---@return Card
function cards.create(def, owner, p, zone) end

--- The card with an id.
--- Errors: no card with that id.
--- Example: local c = cards.get(1)
---@param id CardId
---@return Card
function cards.get(id) end

--- A card's definition (read-only).
--- Errors: not a card.
--- Example: local cost = cards.def(c).cost
---@param c CardArg
---@return CardDef
function cards.def(c) end

--- Whether a card's definition has a tag.
--- Errors: not a card; a tag no card of the game has (a typo).
--- Example: if cards.has_tag(c, "captain") then say("a captain") end
---@param c CardArg
---@param tag string
---@return boolean
function cards.has_tag(c, tag) end

--- Moves a card to a zone: cards.to_zone(c, p, zone [, where]) for a player's own
--- zone, cards.to_zone(c, zone [, where]) for a shared one. where: "top" (default),
--- "bottom" or a position, counted from 1 at the bottom to one past the top. A player
--- who now sees the card's face and did not before (a card from another's hand put in
--- theirs) has learned it: their fair undo stops here, as at a reveal.
--- Errors: not a card; no such player or zone; a bad `where` (a position outside the zone).
--- Example: cards.to_zone(c, c.owner, "discard")
---@param c CardArg
---@param p Player|string The zone's player, or a shared zone's name.
---@param zone string|nil
---@param where ("top"|"bottom"|integer)|nil
---@return Card
function cards.to_zone(c, p, zone, where) end

--- Puts a card on an empty board space (from anywhere, or from another space).
--- Errors: not a card; no such space; the space is taken by another card.
--- Example: cards.place(c, "c3")
---@param c CardArg
---@param s Space
---@return Card
function cards.place(c, s) end

--- Two cards on the board exchange spaces, in everyone's sight: whoever knew either goes on
--- knowing it. For face-down cards whose swap the others should lose track of, turn each
--- face down again after (new stand-ins, known only to their owner).
--- Errors: not a card; a card not on the board.
--- Example: cards.swap(a, b)
---@param a CardArg
---@param b CardArg
function cards.swap(a, b) end

--- Puts a card under a host card (zone "under"); it travels with the host.
--- Errors: not a card; a card put under itself, or under a card that is under it.
--- Example: cards.attach(sword, knight)
---@param c CardArg
---@param host CardArg
function cards.attach(c, host) end

--- The cards attached under a host, oldest first.
--- Errors: not a card.
--- Example: local gear = cards.attached(knight)
---@param host CardArg
---@return Card[]
function cards.attached(host) end

--- Cards on the board, in board order, optionally filtered.
--- Example: local mine = cards.on_board(function(c) return c.controller == 1 end)
---@param filter (fun(c: Card): boolean)|nil
---@return Card[]
function cards.on_board(filter) end

--- Cards in play: on the board, then in the zones game.yaml lists under `in_play`, optionally filtered.
--- Example: local all = cards.in_play()
---@param filter (fun(c: Card): boolean)|nil
---@return Card[]
function cards.in_play(filter) end

--- Whether a card is on the board.
--- Errors: not a card.
--- Example: if cards.is_on_board(c) then say(c.space) end
---@param c CardArg
---@return boolean
function cards.is_on_board(c) end

--- Cards in play whose definition has a hook, modifier or ability of this name.
--- Errors: a bad kind; a name the game does not declare.
--- Example: local auras = cards.in_play_with("modifiers", "strength")
---@param kind "hooks"|"modifiers"|"abilities"
---@param name string A name the game declares for that kind.
---@return Card[]
function cards.in_play_with(kind, name) end

--- Whether a card is face down.
--- Errors: not a card.
--- Example: local hidden = cards.is_face_down(c)
---@param c CardArg
---@return boolean
function cards.is_face_down(c) end

--- Turns a card face down: its owner sees it, the others see a face-down card under a new stand-in id
--- (whose number tells nothing of the order cards were turned down).
--- With in_sight, it was turned over where it lies in sight of those who saw its face (a
--- card in play, face up on the board or in a public zone: everyone; in an owner's zone:
--- its owner; and whoever it was revealed to), and they go on seeing which card it is.
--- Errors: not a card; in_sight not a boolean; in_sight for a card already face down.
--- Example: cards.turn_face_down(c, true)
---@param c CardArg
---@param in_sight? boolean Whether those who saw it face up still know it (default false).
function cards.turn_face_down(c, in_sight) end

--- Turns a card face up: it shows as itself to whoever sees where it lies (everyone,
--- on the board or in a public zone; its owner, in a hand). cards.reveal shows a card
--- to players who do not see its zone. A reveal: fair undo stops here. It says nothing
--- itself (cards.reveal says who shows what): the rules say what the players see.
--- Errors: not a card.
--- Example: cards.turn_face_up(c)
---@param c CardArg
function cards.turn_face_up(c) end

--- Puts a public mark on a face-down card: what every player knows of it without seeing
--- its face (what was paid for it, say). Every view shows the mark with the card; a
--- bot's sample deals the card only definitions that the evaluation file's
--- fits(mark, def) accepts, when it defines one. The mark goes when the card turns face
--- up, turns face down again or leaves its place; nil takes it off.
--- Errors: not a card; a face-up card; a mark that is not plain data (booleans, numbers, strings, tables of them).
--- Example: cards.turn_face_down(c); cards.mark(c, { paid = 3 })
---@param c CardArg
---@param mark any
function cards.mark(c, mark) end

--- Makes player p the card's owner for good (a card taken from a shared pile becomes the
--- taker's). The owner sees the card face down where they see its place. The card keeps
--- its first owner (`first_owner`). On the board, where a bot's sample deals a hidden card
--- among its owner's, the others' samples join the old owner's cards with the new one's.
--- A face-down card's new owner now knows its face (fair undo stops there); its old owner
--- goes on knowing it if they did. Its controller stays as it was (a card nobody
--- controlled is the new owner's): set that too when the taker now controls it
--- (`c.controller = 2`). p nil makes it nobody's again, as a card put back on a shared
--- pile should be (and nobody controls it, if its owner did): else its old owner, who sees
--- its face-down cards wherever they see the place, would see it on whoever drew it next.
--- Errors: not a card; no such player.
--- Example: cards.set_owner(c, 2); c.controller = 2
---@param c CardArg
---@param p Player|nil
function cards.set_owner(c, p) end

--- Shows a card's face to player p, or to everyone when p is nil, until it is
--- shuffled into a zone, turned face down, or moved out of a place p does not see into one
--- it does not see, or face down (p cannot tell which card moved: it forgets the cards
--- left where it was too). Says so to every seat:
--- "Player 1 shows player 2 a card", "Player 2 reveals Banner" (by whose zone it is in, or
--- who controls it), or `said` instead (the rules' words: who looked, whose attack
--- exposed it), p reading instead which card it was ("You see Duelist (player 1's hand)");
--- or nothing with said = false (the rules say one line for many cards, and say(text, p) what p saw).
--- Errors: not a card; a card in no zone; no such player; said that is neither text nor false.
--- Example: cards.reveal(c, nil, "Player 1's attack exposes " .. c.name)
---@param c CardArg
---@param p Player|nil
---@param said string|false|nil
function cards.reveal(c, p, said) end

--- Whether player p sees a card's face where it lies now: face up on the board or in a
--- zone p sees, or shown to p (cards.reveal; a face-down card: its owner, and those who
--- saw it turned over in sight). p nil: a designer, who sees everything.
--- Errors: not a card; a player that does not exist.
--- Example: local known = cards.is_seen_by(c, 2)
---@param c CardArg
---@param p Player|nil
---@return boolean
function cards.is_seen_by(c, p) end

--- Moves a card to a zone by its key ("hand:1"), creating a zone for an unknown
--- key. Engine use: scripts should call cards.to_zone, which checks the names.
--- Example: cards.to_zone_key(c, "discard:1")
---@param c CardArg
---@param key string
function cards.to_zone_key(c, key) end

-------------------------------------------------------------------------------
-- zones
-------------------------------------------------------------------------------

--- Zones declared in game.yaml: (p, zone) for a player's own, (zone) for a shared one.
---@class zones
zones = {}

--- Card ids of a zone, bottom to top (a copy).
--- Errors: no such zone or player; a player's zone named without a player.
--- Example: local ids = zones.ids(1, "hand")
---@param p Player|string The zone's player, or a shared zone's name.
---@param zone string|nil
---@return CardId[]
function zones.ids(p, zone) end

--- Cards of a zone, bottom to top.
--- Errors: no such zone or player.
--- Example: for _, c in ipairs(zones.cards(1, "hand")) do say(c.name) end
---@param p Player|string
---@param zone string|nil
---@return Card[]
function zones.cards(p, zone) end

--- How many cards a zone holds.
--- Errors: no such zone or player.
--- Example: local n = zones.count(1, "deck")
---@param p Player|string
---@param zone string|nil
---@return integer
function zones.count(p, zone) end

--- The top card of a zone, or nil when it is empty.
--- Errors: no such zone or player.
--- Example: local top = zones.top(1, "deck")
---@param p Player|string
---@param zone string|nil
---@return Card|nil
function zones.top(p, zone) end

--- Shuffles a zone with the engine's generator; cards revealed before are unknown again
--- (and those under them), and face-down ones take new stand-ins.
--- Errors: no such zone or player.
--- Example: zones.shuffle(1, "deck")
---@param p Player|string
---@param zone string|nil
function zones.shuffle(p, zone) end

--- Moves up to n cards (default 1) from the top of one zone to the top of another,
--- one at a time: zones.draw(p, from, to [, n [, to_p]]) where either zone may be
--- p's own or shared (to_p: another player's zone as `to`), or zones.draw(from, to [, n])
--- between two shared zones. Returns the cards moved (fewer when the source runs out).
--- Errors: no such zone or player; a player's zone without a player; a count that is not an integer.
--- Example: local drawn = zones.draw(1, "deck", "hand", 2)
---@param p Player|string
---@param from string
---@param to string|integer|nil
---@param n integer|nil
---@param to_p Player|nil
---@return Card[]
function zones.draw(p, from, to, n, to_p) end

--- For a secret choice whose outcomes the others must not tell apart (swap a hand card
--- with the hidden pile's top, or keep it; put the top card at the bottom, or leave it):
--- every seat that sees neither zone forgets what it was shown of their cards, and its
--- bots' samples deal the two zones' hidden cards as one pool, as after a card it could not
--- see moved between them. Call it in the branch that moves no card, so both look alike.
--- Shapes as zones.draw: zones.lose_track(p, a [, b [, b_p]]) where either zone may be
--- p's own or shared (b_p: b's player, when not p), or zones.lose_track(a [, b]) between
--- shared zones; with no b, within zone a.
--- Errors: no such zone or player; a player's zone without a player; a player with only shared zones.
--- Example: zones.lose_track(1, "hand", "deck")   -- (kept their card: as if swapped with the deck's top)
---@param p Player|string
---@param a string
---@param b string|nil
---@param b_p Player|nil
function zones.lose_track(p, a, b, b_p) end

-------------------------------------------------------------------------------
-- tokens
-------------------------------------------------------------------------------

--- Named counts on a card (damage, wounds, charge...). add, remove and set return the new count.
---@class tokens
tokens = {}

--- How many tokens of a name a card has (0 when none).
--- Errors: not a card; a name that is not a string.
--- Example: local dmg = tokens.get(c, "damage")
---@param c CardArg
---@param name string
---@return integer
function tokens.get(c, name) end

--- Adds n tokens (default 1; a negative n takes some away, down to none).
--- Errors: not a card; a count that is not an integer.
--- Example: tokens.add(c, "damage", 2)
---@param c CardArg
---@param name string
---@param n integer|nil
---@return integer count The new count.
function tokens.add(c, name, n) end

--- Removes up to n tokens (all of them when n is nil).
--- Errors: not a card; a count that is not an integer.
--- Example: tokens.remove(c, "damage")
---@param c CardArg
---@param name string
---@param n integer|nil
---@return integer count The new count.
function tokens.remove(c, name, n) end

--- Sets a card's count of a token (0 or less removes them).
--- Errors: not a card; a count that is not an integer.
--- Example: tokens.set(c, "charge", 3)
---@param c CardArg
---@param name string
---@param n integer
---@return integer count The new count.
function tokens.set(c, name, n) end

--- Removes every token from a card.
--- Errors: not a card.
--- Example: tokens.clear(c)
---@param c CardArg
function tokens.clear(c) end

-------------------------------------------------------------------------------
-- counters
-------------------------------------------------------------------------------

--- Bounded numbers declared in game.yaml: counters.get(p, name) for a player's own,
--- counters.get(name) for a shared one. Values stay within min and max.
---@class counters
counters = {}

--- A counter's value.
--- Errors: no such counter or player; a player's counter without a player.
--- Example: local m = counters.get(1, "coins")
---@param p Player|string The player, or a shared counter's name.
---@param name string|nil
---@return number
function counters.get(p, name) end

--- Adds n (may be negative), kept within the counter's bounds.
--- Errors: no such counter or player; an amount that is not a whole number (0.5, NaN: // divides to one; 2.0 is 2).
--- Example: counters.add(1, "coins", 2)
---@param p Player|string
---@param name string|number
---@param n integer|nil
---@return number value The new value.
function counters.add(p, name, n) end

--- Sets a counter, kept within its bounds.
--- Errors: no such counter or player; a value that is not a whole number.
--- Example: counters.set("round_bonus", 0)
---@param p Player|string
---@param name string|number
---@param v integer|nil
---@return number value The new value.
function counters.set(p, name, v) end

--- Spends n.
--- Errors: the counter would go below its minimum; an amount below 0 or not a whole number; no such counter or player.
--- Example: counters.spend(1, "coins", 3)
---@param p Player|string
---@param name string|number
---@param n integer|nil
---@return number value The new value.
function counters.spend(p, name, n) end

--- Whether n can be spent without going below the counter's minimum.
--- Errors: an amount below 0 or not a whole number; no such counter or player.
--- Example: if counters.can_spend(1, "coins", 3) then say("affordable") end
---@param p Player|string
---@param name string|number
---@param n integer|nil
---@return boolean
function counters.can_spend(p, name, n) end

--- A counter's bounds from game.yaml (nil when unbounded).
--- Errors: no such counter.
--- Example: local lo, hi = counters.bounds("coins")
---@param name string
---@return number|nil min
---@return number|nil max
function counters.bounds(name) end

-------------------------------------------------------------------------------
-- dice
-------------------------------------------------------------------------------

--- Dice declared in game.yaml, each a list of faces, each face a list of symbols.
---@class dice
dice = {}

--- Rolls n dice of a kind with the engine's generator.
--- Errors: no such die; n not a whole number of 0 or more.
--- Example: local faces = dice.roll("d6", 2)
---@param die string A die the game declares.
---@param n integer 0 or more.
---@return Face[]
function dice.roll(die, n) end

--- How many times a symbol shows among rolled faces.
--- Errors: a symbol that no die shows (a typo).
--- Example: local hits = dice.count(dice.roll("d6", 3), "hit")
---@param faces Face[]
---@param symbol string
---@return integer
function dice.count(faces, symbol) end

--- The names of the dice the game declares, sorted (a new list each call).
--- Example: local known = dice.names()
---@return string[]
function dice.names() end

--- The faces' labels joined by ", " ("hit, miss").
--- Example: say("rolls " .. dice.labels(faces))
---@param faces Face[]
---@return string
function dice.labels(faces) end

-------------------------------------------------------------------------------
-- players
-------------------------------------------------------------------------------

--- The seats of the match.
---@class players
players = {}

--- How many players the match has.
--- Example: local n = players.count()
---@return integer
function players.count() end

--- Every player, 1 to n.
--- Example: for _, p in ipairs(players.list()) do say("player " .. p) end
---@return Player[]
function players.list() end

--- The player after p in seat order (after the last comes 1).
--- Errors: no such player.
--- Example: local other = players.next(1)
---@param p Player
---@return Player
function players.next(p) end

--- What the match knows of a seat: {seat=, set=, name=}.
--- Errors: no such player.
--- Example: local name = players.info(1).name
---@param p Player
---@return PlayerInfo
function players.info(p) end

--- Player p learned something the rules showed them alone, though no card came into their
--- sight (squares their scout sees empty, a count they were told): their fair undo stops
--- here, as at a reveal ("cannot undo past decision 7: a scouting report happened after it").
--- Errors: no such player; what that is not text.
--- Example: players.learned(1, "scouting report")
---@param p Player
---@param what? string What they learned, for the refusal (default "look").
function players.learned(p, what) end

--- Every player in seat order, starting from p.
--- Errors: no such player.
--- Example: for _, q in ipairs(players.from(2)) do say(q) end
---@param p Player
---@return Player[]
function players.from(p) end

-------------------------------------------------------------------------------
-- rng
-------------------------------------------------------------------------------

--- The engine's seeded generator: the only chance a script has (math.random is gone).
--- Every draw is noted: fair undo cannot go back past it.
---@class rng
rng = {}

--- A whole number from lo to hi, both included.
--- Errors: an empty range (hi < lo).
--- Example: local n = rng.int(1, 6)
---@param lo integer
---@param hi integer
---@return integer
function rng.int(lo, hi) end

--- Shuffles a list in place and returns it.
--- Example: local order = rng.shuffle({ 1, 2, 3 })
---@generic T
---@param list T[]
---@return T[]
function rng.shuffle(list) end

--- One element of a non-empty list, at random.
--- Errors: an empty list.
--- Example: local p = rng.pick(players.list())
---@generic T
---@param list T[]
---@return T
function rng.pick(list) end

-------------------------------------------------------------------------------
-- scenario (only in a scenario's `lua`)
-------------------------------------------------------------------------------

--- Setting up a position for a test: only a scenario file's `setup: lua:` sees it.
---@class scenario
scenario = {}

--- Creates a card on a space (removing any card there), owned and controlled by p, with tokens {name=count}.
--- Errors: no such card definition, player or space.
--- Example: local c = scenario.create("scout", 1, "c3", { damage = 1 })
---@param def string
---@param p Player
---@param space Space
---@param tokens table<string, integer>|nil
---@return Card
function scenario.create(def, p, space, tokens) end

--- Creates cards on top of a zone, in order (the last ends on top):
--- scenario.add(p, zone, {defs}) or scenario.add(zone, {defs}) for a shared zone.
--- They belong to p (player 1 in a shared zone).
--- Errors: no such zone, player or card definition.
--- Example: scenario.add(1, "hand", { "scout", "scout" })
---@param p Player|string
---@param zone string|string[]
---@param defs string[]|nil
---@return Card[]
function scenario.add(p, zone, defs) end

--- Takes every card out of a zone: scenario.empty(p, zone), or scenario.empty(zone) if shared.
--- Errors: no such zone or player.
--- Example: scenario.empty(1, "hand")
---@param p Player|string
---@param zone string|nil
function scenario.empty(p, zone) end

--- Sets a counter: scenario.set_counter(p, name, v), or scenario.set_counter(name, v) if shared.
--- Errors: no such counter or player.
--- Example: scenario.set_counter(1, "coins", 9)
---@param p Player|string
---@param name string|number
---@param v number|nil
function scenario.set_counter(p, name, v) end

--- Takes a card out of the game: it stays in the state, in the engine's zone `_removed`, which no rule or view names.
--- Errors: not a card.
--- Example: scenario.remove(board.card_at("c3"))
---@param c CardArg
function scenario.remove(c) end

--- Removes every card from the board.
--- Example: scenario.clear_board()
function scenario.clear_board() end

--- The player whose turn comes first, and the phase that first turn (round) starts in.
--- Errors: no such phase.
--- Example: scenario.start(2, "attack")
---@param p Player
---@param phase string|nil
function scenario.start(p, phase) end

--- Results the generator gives next, in order, before it draws at random again
--- (a die roll takes the face's number; a shuffle takes one number per swap).
--- Example: scenario.force({ 6, 6 })
---@param values integer[]
function scenario.force(values) end

--- Applies a scenario file's `setup:` given as a table (what the YAML keys do).
--- Errors: an unknown card, space, zone, counter or player in it.
--- Example: scenario.apply({ clear_board = true })
---@param setup table
function scenario.apply(setup) end

--- Gone since 0.2.0: always fails, naming scenario.create.
--- Errors: always.
--- Example: pcall(scenario.place)
function scenario.place() end
