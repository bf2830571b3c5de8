"""One Lua runtime per match: the engine's Lua library, the game's rules and cards, in a sandbox."""
from __future__ import annotations

import signal
import threading
import weakref
from typing import Any

from lupa.lua54 import LuaError, LuaMemoryError, LuaRuntime, lua_type

from . import ENGINE_DIR
from .errors import DefinitionError, Problem, ScriptError
from .loader import GameDef, LuaSource, display, lua_game_table
from .lint import problem_from_lua, syntax_problem
from .luac import compile_lua, first_line, whole_places

ENGINE_FILES = ("core", "portable", "board", "pieces", "events", "flow", "libs", "sandbox", "state")
# Loaded when a match of the runtime first needs it (Runtime._scenario_api, check_sets,
# _sampling, fork): most never do, and each runtime holds its own compiled copy of every
# engine file it loads.
ON_DEMAND = ("scenario", "checking", "sampling", "forking")
_SOURCES = {name: (ENGINE_DIR / "lua" / f"{name}.lua").read_text() for name in ENGINE_FILES + ON_DEMAND}

LOAD_HEADROOM_MB = 256   # room above a match's memory cap while its runtime loads (see Runtime)

# Globals removed from the runtime once the engine has captured what it needs.
_UNSAFE = ("python", "io", "os", "package", "require", "debug", "load", "loadstring",
           "dofile", "loadfile", "collectgarbage")


def _deny_attributes(obj: Any, name: Any, is_setting: bool) -> Any:
    raise AttributeError("scripts cannot reach Python objects")


# -- Ctrl-C while a script runs ------------------------------------------------------
# Python runs its signal handlers between bytecodes of the main thread, never while
# Lua runs. But every ten thousand steps or so the budget calls _poll (flow.lua's
# settle, sandbox.lua's E.watch): a pending SIGINT is handled right there, in
# _poll's frame, where our handler only notes it; _poll then tells the budget, which
# stops the script with an error (the match stays at its last decision). Anywhere
# else Ctrl-C raises KeyboardInterrupt as usual.

_interrupted = False


def _poll() -> bool:
    """Whether Ctrl-C was pressed since the last call (called from Lua)."""
    global _interrupted
    if _interrupted:
        _interrupted = False
        return True
    return False


def _on_sigint(signum, frame) -> None:
    global _interrupted
    if frame is not None and frame.f_code is _poll.__code__:
        _interrupted = True
        return
    signal.default_int_handler(signum, frame)


def _catch_ctrl_c() -> None:
    """Installs the handler, in the main thread, over Python's default one only."""
    if (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
        signal.signal(signal.SIGINT, _on_sigint)


def _game_table(game: GameDef) -> dict:
    cached = getattr(game, "_lua_table", None)
    if cached is None:
        cached = lua_game_table(game)
        game._lua_table = cached
    return cached


NO_MEMORY = "not enough memory"   # Lua's own message


class Runtime:
    """A Lua runtime holding one match. The engine's Lua table stays inside: callers use the methods."""

    def __init__(self, game: GameDef, seed: int, seats: list[dict], scenario: LuaSource | None = None,
                 setup: dict | None = None, options: dict | None = None):
        memory = self.memory_mb = (game.data.get("limits") or {}).get("memory_mb", 256)
        self.game_root = game.root   # (its game.yaml sets the limit: named in the message)
        # Loading runs with room above the cap: the host's conversions of definitions
        # (table_from) are not protected calls, and a Lua runtime that reaches its cap
        # inside one aborts the process. The cap applies once everything is loaded.
        self._lua = LuaRuntime(
            register_eval=False,
            register_builtins=False,
            attribute_filter=_deny_attributes,
            max_memory=(memory + LOAD_HEADROOM_MB) * 1024 * 1024,
        )
        lua = self._lua
        self._E = E = lua.table()
        # The step counter every compiled chunk takes as its first argument (engine/steps.py);
        # flow.lua sets what it calls when it runs out. Scripts never see it.
        E.steps = lua.table(n=1 << 40)
        # limits: {steps: 0} (benchmarks only: game.yaml refuses it) compiles with no steps
        self._steps = "none" if (game.data.get("limits") or {}).get("steps") == 0 else "calls"
        # (the host's alone: it keeps load after the scripts' globals lose it)
        self._run_binary = lua.execute("local load, assert = load, assert\n"
                                       "return function(bc, E) return assert(load(bc, nil, 'b'))(E.steps, E) end")
        for name in ENGINE_FILES:
            self._load_engine_file(name)
        _catch_ctrl_c()
        E.set_poll(_poll)
        g = lua.globals()
        for name in _UNSAFE:
            g[name] = None
        lua.execute("string.dump = nil")
        E.game = lua.table_from(_game_table(game), recursive=True)
        for key, value in (options or {}).items():
            E.game.options[key] = lua.table_from(value, recursive=True) if isinstance(value, (list, dict)) else value
        try:
            E.new_state(seed, lua.table_from(seats, recursive=True))
        except LuaError as e:   # a board the loader would refuse (a game built in Python)
            raise DefinitionError([Problem(str(game.root / "game.yaml"), 1, 1, str(e).splitlines()[0])]) from None
        E.make_rules_env()

        problems: list[Problem] = []
        for sid, s in game.sets.items():
            E.sets[sid] = lua.table_from({**s.data, "cards": s.card_ids}, recursive=True)
        for cid, c in game.cards.items():
            E.add_def(lua.table_from({**c.data, "set": c.set_id}, recursive=True))
        for cid, c in game.cards.items():
            for src in c.lua:
                ok, bc = compile_lua(src.source, src.chunkname, self._steps)
                if not ok:
                    problems.append(syntax_problem(src, bc))
                    continue
                err = E.install_lua(cid, src.field[-2], src.field[-1], bc, src.chunkname)
                if err is not None:
                    found = problem_from_lua(err, src.chunkname)
                    if found.path == src.chunkname and found.line == 1 and not err.startswith(src.chunkname):
                        found = Problem(found.path, first_line(src.source)[0], 1, found.message)   # at its value
                    problems.append(found)
        E.freeze_definitions()
        for src in game.scripts:
            ok, bc = compile_lua(src.source, src.chunkname, self._steps)
            if not ok:
                problems.append(syntax_problem(src, bc))
                continue
            ok, res = E.load_chunk(bc, src.chunkname, "rules")
            if not ok:
                problems.append(problem_from_lua(res, src.chunkname))
                continue
            r = E.run_guarded(res)
            if not (r[0] if isinstance(r, tuple) else r):
                problems.append(problem_from_lua(str(r[1]), src.chunkname))
        E.rules_loaded = True   # (listeners and rules modifiers are added by now: E.only_as_rules_load)
        if game.evaluator is not None:
            src = game.evaluator
            ok, res = compile_lua(src.source, src.chunkname, self._steps)
            err = E.load_evaluator(res, src.chunkname) if ok else res
            if not ok:
                problems.append(syntax_problem(src, res))
            elif err is not None:
                problems.append(problem_from_lua(str(err), src.chunkname))
        if scenario is not None:
            self._scenario_api()
            compiled, res = compile_lua(scenario.source, scenario.chunkname, self._steps)
            ok = compiled
            if ok:
                ok, res = E.load_chunk(res, scenario.chunkname, "scenario")
            if not ok:
                problems.append(problem_from_lua(res, scenario.chunkname) if compiled else syntax_problem(scenario, res))
            else:
                E.scenario_lua = res
        if setup is not None:
            E.scenario_data = lua.table_from(setup, recursive=True)
        if scenario is not None or setup is not None:
            self._scenario_api()
            E.scenario_fn = lua.eval("""function(E) return function()
                if E.scenario_data then E.scenario_api.apply(E.scenario_data) end
                if E.scenario_lua then E.scenario_lua() end
            end end""")(E)
        if problems:
            raise DefinitionError(problems)
        self._check_flow(game)
        E.mark_heap()
        if lua.get_memory_used() > memory * 1024 * 1024:
            raise LuaMemoryError(f"the definitions need more than {memory} MB")
        lua.set_max_memory(memory * 1024 * 1024)
        self._shared = _Shared(self)
        self._saved = None      # this match's values while another match of the runtime runs
        self._keeps = False     # whether this match keeps checkpoints (keep_checkpoints)

    def _load_engine_file(self, name: str) -> None:
        """Runs one of the engine's Lua files in this runtime. They keep their lines but not
        their local variables' names, which only messages of the engine's own bugs would
        show (luac.without_locals)."""
        ok, bc = compile_lua(_SOURCES[name], f"engine/lua/{name}.lua",
                             "none" if self._steps == "none" else "loops", locals=False)
        assert ok, bc
        self._run_binary(bc, self._E)

    def _scenario_api(self):
        """The engine's `scenario` table (engine/lua/scenario.lua), loaded on first use."""
        if self._E.scenario_api is None:
            self._load_engine_file("scenario")
        return self._E.scenario_api

    # -- matches side by side --------------------------------------------------

    def _set_aside(self, cur: "Runtime | None") -> None:
        """Keeps the values of the match the runtime runs now (cur) in its saved table, for
        another match to run; a match dropped while it ran (cur is None) needs none."""
        if cur is not None:
            cur._saved = self._E.save_match(self._lua.table())

    def _activate(self) -> None:
        """Makes this match the one the Lua runtime runs (its forks share the runtime)."""
        shared = self._shared
        cur = shared.current
        if cur is not self:
            self._set_aside(cur)
            self._E.load_match(self._saved)
            self._saved = None
            shared.current = self

    def keep_checkpoints(self) -> None:
        """From now on, copy the state at the top of every turn, so forks replay only the turn."""
        if self._keeps:   # (no switch to this match for nothing: forks call this every time)
            return
        self._activate()
        self._E.keep_checkpoints = True
        self._E.collect_for_forks()   # (a search's runtime: sandbox.lua says why)
        self._keeps = True

    def _beside(self, make, *args) -> tuple["Runtime", tuple]:
        """Runs make(*args, this match's values) (E.fork, E.new_match) to put a new match in
        this runtime, leaving this one aside; returns the new match's Runtime and what make
        returned."""
        shared, E = self._shared, self._E
        cur = shared.current
        if cur is self:
            saved = E.current_match()
        else:   # make reads this match's values from its saved table: no need to run it first
            self._set_aside(cur)
            saved = self._saved
            shared.current, self._saved = self, None
        try:
            res = self._invoke(make, *args, saved)
        except BaseException:
            E.load_match(saved)   # this match runs again, whatever make had done
            raise
        new = object.__new__(Runtime)
        new._lua, new._E, new.memory_mb, new.game_root = self._lua, self._E, self.memory_mb, self.game_root
        new._steps, new._run_binary = self._steps, self._run_binary
        new._shared, new._saved, new._keeps = self._shared, None, False
        self._saved = saved
        self._shared.current = new
        return new, res

    def new_match(self, seed: int, seats: list[dict]) -> "Runtime":
        """Another match of the same game (and game options) in this runtime, not yet started:
        no engine, cards or rules to load again. Sound for games whose scripts keep all
        match data in `state` (as forks need too)."""
        return self._beside(self._E.new_match, seed, self._lua.table_from(seats, recursive=True))[0]

    def fork(self, quiet: bool = True, keep: bool = False, redeal: tuple[int, int] | None = None,
             honest: bool = False) -> tuple["Runtime", tuple]:
        """A copy of this match in the same runtime: (its Runtime, its position as step()).
        redeal: (seat, seed) to deal the copy again as redeal() does, sharing the work of
        finding the hidden cards with other forks of the same position; honest: with the
        other seats' secret answers as given (a sample draws them again: E.fork)."""
        seat, seed = redeal if redeal is not None else (None, None)
        if seat is not None:
            self._sampling()
        if self._E.fork is None:
            self._load_engine_file("forking")
        new, res = self._beside(self._E.fork, keep, quiet, seat, seed, honest)
        new._keeps = keep
        out = tuple(res)
        while len(out) > 1 and out[-1] is None:
            out = out[:-1]
        if out[0] == "error":
            out = ("error", self._plain_error(out[1]))
        return new, out

    def _check_flow(self, game: GameDef) -> None:
        """Every Lua function the flow names must exist once the scripts have run."""
        from . import yamlio
        from .names import did_you_mean

        flow = game.data["flow"]
        needed = [(("flow", "setup"), flow["setup"])]
        needed += [(("flow", "phases", i, k), p[k]) for i, p in enumerate(flow["phases"])
                   for k in ("run", "offer") if k in p]
        needed += [(("flow", k), flow[k]) for k in ("next_player", "after_round") if k in flow]
        env, lua_type = self._E.rules_env, self._lua.eval("type")  # (only while building: no switch)
        missing = [(keys, n) for keys, n in needed if lua_type(env[n]) != "function"]
        if missing:
            path = game.root / "game.yaml"
            doc, _ = yamlio.load(path, display(path))
            defined = sorted(str(k) for k, v in env.items() if lua_type(v) == "function")
            problems = []
            for keys, name in missing:
                said = f"no Lua function called '{name}' in the rules' scripts{did_you_mean(str(name), defined)}"
                problems.append(doc.problem(keys, said) if doc is not None else Problem(display(path), 1, 1, said))
            raise DefinitionError(problems)

    # -- driving the match -----------------------------------------------------

    def start(self, quiet: bool = False) -> tuple:
        """Starts the match coroutine; returns ("choice", player, prompt, count), ("over",) or ("error", msg)."""
        self._activate()
        self._E.quiet = quiet
        return self._result(self._call(self._E.start))

    def step(self, index: int) -> tuple:
        """Resumes the match with the 1-based index of an option; returns like start()."""
        return self._result(self._call(self._E.step, index))

    def answer(self, index: int) -> tuple[str, tuple]:
        """step() and the label of the answer given, in one call: (label, result as step())."""
        res = self._call(self._E.answer, index)
        return res[0], self._result(res[1:])

    def rollout(self, seed: int, max_decisions: int) -> tuple[int, tuple]:
        """Random answers given in Lua until the end or max_decisions: (decisions made, result as step())."""
        res = self._call(self._E.rollout, seed, max_decisions)
        return int(res[0]), self._result(res[1:])

    def _result(self, res: tuple) -> tuple:
        """A step's result as the host reads it: an error's message in our words (an error
        always has one)."""
        if res[0] == "error":
            return ("error", self._plain_error(res[1] if len(res) > 1 else None))
        return res

    def answers_from(self, first: int) -> tuple[list[str], list[int]]:
        """Labels and askers of the answers from decision `first` (1-based) on."""
        keys, who = self._call(self._E.answers_from, first)
        return _list(keys), [int(p) for p in _list(who)]

    def option_keys(self) -> list[str]:
        """Labels of the pending options, in order (empty when nothing is asked)."""
        self._activate()
        return _list(self._E.pending_keys())

    def option_warnings(self) -> list[str]:
        """Each pending option's `warn` text ("" for none), in order."""
        self._activate()
        return [str(w) for w in _list(self._E.pending_warnings())]

    def key_index(self, key: str) -> int | None:
        """The 1-based index of the pending option with this label, or None."""
        self._activate()
        return self._E.key_index(key)

    def chance_notes(self) -> list[tuple[int, str, tuple[int, ...] | None, dict[int, str]]]:
        """(decision number, kind, seats, told) of every draw, roll, shuffle and card come into
        sight so far, in order; seats: who learned something (None: everyone); told: what a
        seat alone reads instead of kind (players.learned's words)."""
        self._activate()
        return [(int(n["decision"]), str(n["kind"]), None if n["seats"] is None else tuple(_list(n["seats"])),
                 {} if n["told"] is None else {int(k): str(v) for k, v in n["told"].items()})
                for n in _list(self._E.chance_log)]

    def rules_globals(self) -> dict[str, str]:
        """The rules' own globals that hold data, as name -> a short form of the value (a
        number, text or true/false as it is, a table by its count of entries): for telling
        which of them a match changed (summon check)."""
        self._activate()
        out = {}

        def short(v) -> str | None:
            t = lua_type(v)
            if t == "table":
                return f"a table of {sum(1 for _ in v.items())} entries"
            return None if t in ("function", "userdata", "thread") else repr(v)
        for k, v in self._E.rules_env.items():
            if short(v) is not None:
                out[str(k)] = short(v)
        # the rules files' locals their functions keep: "NAME, a local of FILE:LINE's FUNCTION"
        self._checking()
        for item in _list(self._call(self._E.rules_locals)[0]):
            name, value, at, fn = str(item[1]), item[2], str(item[3]), str(item[4])
            at = whole_places(at + ":")[:-1]   # (Lua cuts a long file name to "..." and its end)
            if short(value) is not None:
                out[f"local {name} (kept by {fn}, {at})"] = short(value)
        return out

    def force(self, values: list[int]) -> None:
        """Results the generator gives next, in order (scenario tests)."""
        self._call(self._scenario_api().force, self._lua.table_from(list(values)))

    def forced_left(self) -> int:
        """How many forced results (force) the generator has not given yet (of this match:
        its runtime may be running a fork or a match built beside it)."""
        self._activate()
        return len(self._E.forced)

    def redeal(self, player: int, seed: int) -> None:
        """Deals again what `player` cannot see and reseeds the generator (see E.redeal)."""
        self._sampling()
        self._call(self._E.redeal, player, seed)

    def _sampling(self) -> None:
        """Loads engine/lua/sampling.lua (E.redeal, E.redeal_fork) when the runtime first samples."""
        if self._E.redeal is None:
            self._load_engine_file("sampling")

    def start_profile(self) -> None:
        """Samples where Lua runs (every 1,000 instructions, by source line) from now on, in
        this match and every match of the runtime started or forked after it (bench/profile.py)."""
        self._activate()
        self._E.start_profile(self._lua.table())

    def profile_samples(self) -> dict[str, int]:
        """The samples so far: "file:line" -> samples there; "~file:line" or "~file:fnN" (the
        function defined at line N) -> samples in it or in what it called."""
        prof = self._E.profile
        return {} if prof is None else {str(k): int(v) for k, v in prof.items() if v}

    def evaluate(self, player: int, throwaway: bool = False) -> float:
        """The game's evaluation of the position from `player`'s view, -1 to 1 (throwaway:
        the match is dropped next, so the evaluation may be handed its tables uncopied)."""
        return float(self._call(self._E.evaluate, player, throwaway)[0])

    # -- reading ---------------------------------------------------------------

    def script_shapes(self) -> dict[str, dict]:
        """What each kind of script ("rules", "card", "scenario", "evaluation") can name:
        {"globals": set, "fields": {engine table: set of its fields}, "unlisted": set of
        tables pairs() cannot list}, read from the environments the engine builds."""
        self._activate()
        self._scenario_api()
        names = lambda t: {str(k) for k in t.keys()}  # noqa: E731
        out = {}
        for kind, sh in self._call(self._E.script_shapes)[0].items():
            out[str(kind)] = {"globals": names(sh.globals), "unlisted": names(sh.unlisted),
                              "fields": {str(k): names(v) for k, v in sh.fields.items()}}
        return out


    def check_sets(self) -> list[tuple[str, tuple | None, str, str | None]]:
        """What the rules' check_set finds in each card set (E.check_sets): (set id, the keys
        of its place in the set's file, list positions from 0, or None; the message; when
        check_set itself failed, "file:line: " where it is defined, the message then being its
        error, else None)."""
        self._checking()
        out = []
        for item in _list(self._call(self._E.check_sets)[0]):
            sid, keys, message = str(item[1]), item[2], str(item[3])
            at = None
            if lua_type(keys) == "table":
                at = tuple(k - 1 if isinstance(k, int) else str(k) for k in _list(keys))
            out.append((sid, at, message, (str(item[4]) if item[4] is not None else "") if keys is True else None))
        return out

    def modifier_that_writes(self) -> tuple[str, str, str, str | None, str | None] | None:
        """The first modifier in play that changes the state when run alone on every card
        (E.modifier_that_writes): ("file:line: " where it is defined, what it is, the state's
        JSON before and after, or None and the error that stopped writing it), or None."""
        self._checking()
        found = self._call(self._E.modifier_that_writes)[0]
        if found is None:
            return None
        return (str(found[1]), str(found[2]), str(found[3]), None if found[4] is None else str(found[4]),
                None if found[5] is None else str(found[5]))

    def state_json(self) -> str:
        """The whole state as canonical JSON (sorted keys)."""
        return self._call(self._E.snapshot_json)[0]

    def view_json(self, player: int | None) -> str:
        """What a player may see, as JSON (None: everything)."""
        self._checking()
        return self._call(self._E.view, player)[0]

    def audit_answer(self, index: int, seats: list[int], want: int | None = None
                     ) -> tuple[str, tuple, list[tuple[int | None, str | None, dict]], list[tuple], list[tuple]]:
        """answer(), noting for summon check's fairness audit (E.met, engine/lua/checking.lua)
        its trace: the questions the engine took without asking on the way, as (player,
        prompt, each of `seats`' views as JSON then, or None), and the returns of phase
        functions, as (None, None, views); and what it showed whom, as (card id, its name, the
        seats or None for all) for a card revealed and (0, the words, seats) for what
        players.learned told; and each counter's change, as (owner: a seat as text or "shared",
        name, value, the script's file, line).
        want: the views only at that place of the trace (from 1), as the audit compares them."""
        self._checking()
        self._activate()
        met = self._lua.table_from({"seats": self._lua.table_from(seats), "trace": self._lua.table(),
                                    "shown": self._lua.table(), "wrote": self._lua.table(), "want": want})
        self._E.met = met
        try:
            key, res = self.answer(index)
        finally:
            self._E.met = None
        trace = [(None if t["player"] is None else int(t["player"]), None if t["prompt"] is None else str(t["prompt"]),
                  {int(k): (v if isinstance(v, str) else None) for k, v in t["views"].items()})
                 for t in _list(met["trace"])]
        shown = [(int(w[1]), str(w[2]), None if w["seats"] is None else tuple(int(x) for x in _list(w["seats"])))
                 for w in _list(met["shown"])]
        wrote = [(str(w["owner"]), str(w["name"]), w["value"], None if w["source"] is None else str(w["source"]),
                  None if w["line"] is None else int(w["line"])) for w in _list(met["wrote"])]
        return key, res, trace, shown, wrote

    def option_shapes(self) -> list[str]:
        """Each pending option's fields but its label, a card by its id (E.option_shapes)."""
        self._checking()
        shapes, error = (self._call(self._E.option_shapes) + (None,))[:2]
        if shapes is None:
            raise ScriptError(self._plain_error(error))
        return [str(x) for x in _list(shapes)]

    def rng_words(self) -> list[int]:
        """The match's generator's state (E.rng_words), to give a world of the audit."""
        self._checking()
        return _list(self._call(self._E.rng_words)[0])

    def set_rng_words(self, words: list[int]) -> None:
        self._checking()
        self._call(self._E.set_rng_words, self._lua.table_from(words))

    def views_json(self, seats: list[int]) -> list[str]:
        """Each seat's view as JSON (E.view_json: no walk for a card kept whole; check looks for one first)."""
        self._checking()
        return [str(v) for v in _list(self._call(self._E.views_json, self._lua.table_from(seats))[0])]

    def _checking(self) -> None:
        """Loads engine/lua/checking.lua (summon check's part, and E.card_kept, which the host's
        views and consoles need) when the runtime first needs it."""
        if self._E.card_kept is None:
            self._load_engine_file("checking")

    def stats_seen(self, player: int | None, card_id: int) -> dict[str, float] | None:
        """A card's stats after the modifiers `player` may know of (E.stats_seen); None: a face it does not see."""
        res = self._call(self._E.stats_seen, player, card_id)[0]
        return None if res is None else {str(k): v for k, v in res.items()}

    def stat_failures(self, player: int | None, card_id: int) -> dict[str, str]:
        """The stats of a card whose modifiers fail for `player` (E.stats_seen), with the error."""
        res = self._call(self._E.stats_seen, player, card_id)
        failed = res[1] if len(res) > 1 else None
        return {} if failed is None else {str(k): whole_places(str(v)) for k, v in failed.items()}

    def board_spaces(self) -> list[str]:
        """The spaces on this match's board, in board order (board.spaces()): the board's
        definition less the regions its number of players leaves out."""
        self._activate()
        order = self._E.board_order
        return [str(order[i]) for i in range(1, len(order) + 1)]

    def board_neighbors(self) -> dict[str, list[str]]:
        """Each space on this match's board and its neighbours there (board.neighbors(s))."""
        self._activate()
        order, nb = self._E.board_order, self._E.board.neighbors
        out = {}
        for i in range(1, len(order) + 1):
            near = nb(order[i])
            out[str(order[i])] = [str(near[j]) for j in range(1, len(near) + 1)]
        return out

    def board_regions(self) -> list[str]:
        """The regions on this match's board, sorted (board.regions())."""
        self._activate()
        if len(self._E.board_order) == 0:   # (a game with no board)
            return []
        names = self._E.board.regions()
        return [str(names[i]) for i in range(1, len(names) + 1)]

    def board_spaces_in(self, region: str) -> list[str]:
        """The spaces of one region on this match's board, in board order (board.spaces_in)."""
        self._activate()
        got = self._E.board.spaces_in(region)
        return [str(got[i]) for i in range(1, len(got) + 1)]

    def winner(self) -> int | None:
        """The winning seat once the match has one (None: not over, or a draw)."""
        self._activate()
        w = self._E.state.winner
        return _whole(w, "winner") if w is not None else None

    def winners(self) -> list[int] | None:
        """Who won once the match is over: the winner alone, or the team end_game named
        (an empty list: nobody); None for a draw, or a match not over."""
        self._activate()
        st = self._E.state
        if not st.over:
            return None
        team = st.winners
        if team is not None and lua_type(team) == "table":
            return [_whole(p, "winners") for p in _list(team)]
        w = st.winner
        return [_whole(w, "winner")] if w is not None else None

    def plays(self) -> list[tuple[str, int, int]]:
        """(card definition, seat, times) of the plays tallied so far (game.yaml `balance: played`)."""
        self._activate()
        text = self._E.plays_list()
        return [(d, int(seat), int(n)) for d, seat, n in (line.split(" ") for line in text.split("\n") if line)]

    def active(self) -> int:
        """state.active: the player whose turn it is."""
        self._activate()
        return _whole(self._E.state.active, "active")

    def clock(self) -> tuple[int, int]:
        """The match's turn and round numbers."""
        self._activate()
        st = self._E.state
        return _whole(st.turn, "turn"), _whole(st["round"], "round")

    def script_globals(self, scope: str = "api") -> dict[str, str]:
        """The globals a script sees, name -> Lua type: the engine's ("api": a card chunk's
        environment, plus `state`), or those the game's rules define beyond them ("rules")."""
        E = self._E
        base = {str(k): lua_type(v) or type(v).__name__ for k, v in E.base_env.items()}
        if scope == "api":
            return {**base, "state": "table"}
        return {str(k): lua_type(v) or type(v).__name__ for k, v in E.rules_env.items()
                if k not in base and k != "state"}

    def api_names(self, table: str) -> list[str]:
        """The keys of an engine API table (board, cards, ..., scenario), sorted."""
        t = self._scenario_api() if table == "scenario" else self._E.base_env[table]
        keys = self._lua.eval("function(t) local out = {} for k in pairs(t) do out[#out + 1] = k end return out end")
        return sorted(str(k) for k in keys(t).values())

    def card_kept(self) -> tuple[str, int] | None:
        """E.card_kept of this match's state: (path, card id) or None."""
        self._activate()
        self._checking()
        res = self._call(self._E.card_kept)
        return (str(res[0]), int(res[1])) if res and res[0] is not None else None

    def drain_messages(self) -> list[tuple[int | None, str, str]]:
        """What the match said since the last call: (None, text, "") for every seat, (player,
        text, others) for that player, the others reading `others` ("": nothing)."""
        self._activate()
        return [(int(m[1]), str(m[2]), str(m[3])) if lua_type(m) == "table" else (None, str(m), "")
                for m in _list(self._E.drain_messages())]

    def eval(self, bytecode: bytes, chunkname: str, player: int | None = None,
             line: int | None = None) -> tuple[bool, str]:
        """Runs compiled code in the sandbox; returns (True, JSON of the results) or (False, message).

        With a player: on a throwaway copy of that player's view, with no access to the match.
        With a line: an error that names no place is placed there (code of one line).
        """
        if player is None:
            res = self._call(self._E.eval, bytecode, chunkname, None, line)
        else:
            self._checking()
            res = self._call(self._E.eval_view, bytecode, chunkname, player, line)
        return bool(res[0]), self._plain_error(res[1]) if not res[0] else res[1]

    def record_edit(self, bytecode: bytes, chunkname: str, line: int | None = None) -> None:
        """Keeps code that eval() just ran on the match (no player) and that changed it, so
        that forks make it again at this decision (E.record_edit)."""
        self._call(self._E.record_edit, bytecode, chunkname, line)

    def _plain_error(self, message: str | None) -> str:
        """Lua's bare "not enough memory" (raised inside a script, caught by the engine, perhaps
        followed by where it ran) in our words."""
        if message is None:
            return "the match stopped (a script ended it with no message)"
        if message.startswith(NO_MEMORY):
            return self._out_of_memory() + message[len(NO_MEMORY):]
        return message

    def _out_of_memory(self) -> str:
        return (f"a script ran out of memory: a match may use {self.memory_mb} MB "
                f"(limits: memory_mb in {display(self.game_root / 'game.yaml')})")

    def _call(self, fn, *args) -> tuple:
        self._activate()
        return self._invoke(fn, *args)

    def _invoke(self, fn, *args) -> tuple:
        """fn(*args) in Lua (this match running), its Lua errors as ScriptError."""
        global _interrupted
        _interrupted = False      # a Ctrl-C pressed after the last script ended stops nothing
        try:
            res = fn(*args)
        except LuaMemoryError:
            raise ScriptError(self._out_of_memory()) from None
        except LuaError as e:
            # (its first line, and where it came from: a card's line, what was running)
            lines = str(e).splitlines() or ["a Lua error with no message"]
            said = [lines[0]] + [x for x in lines[1:] if x.startswith(("  called from ", "  in ", "  <- "))]
            raise ScriptError("\n".join(said)) from None
        except Exception as e:  # memory errors, bad UTF-8 from a script: all end the step
            raise ScriptError(f"the match stopped: {type(e).__name__}: {e}") from None
        return res if isinstance(res, tuple) else (res,)


def _whole(value, name: str) -> int:
    """A number of the state the engine counts with (state.turn, say), which scripts can
    set: a whole number (within 2^53 when written as a float), or a ScriptError saying what
    it is instead."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and abs(value) < 2 ** 53 and value == int(value):
        return int(value)
    shown = ("nil" if value is None else str(value).lower() if isinstance(value, bool) else repr(value)
             if isinstance(value, (str, float)) else "a " + (lua_type(value) or "value"))
    raise ScriptError(f"state.{name} must be a whole number, not {shown}")


def rules_runtime(game: GameDef) -> Runtime:
    """A runtime of the game's rules with no match started (seats take no card set, at least
    two): for reading what its scripts define and can see (summon docs, summon check)."""
    n = max(2, int((game.data.get("players") or {}).get("min", 2)))
    return Runtime(game, 1, [{"set": None, "name": f"Player {i + 1}"} for i in range(n)])


class _Shared:
    """What the matches of one Lua runtime share: which of them the runtime runs now, held
    weakly (a fork a search dropped while it ran is never saved when another match runs)."""

    __slots__ = ("_current",)

    def __init__(self, current: "Runtime"):
        self._current = weakref.ref(current)

    @property
    def current(self) -> "Runtime | None":
        return self._current()

    @current.setter
    def current(self, rt: "Runtime") -> None:
        self._current = weakref.ref(rt)


def _list(t) -> list:
    """A Lua sequence as a Python list, in order."""
    return [t[i] for i in range(1, len(t) + 1)]
