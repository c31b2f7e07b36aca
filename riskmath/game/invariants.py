"""The invariants of play that every position must satisfy (private): what ``GameState.problems()`` checks.

A position is one the engine can go on from (transitions, legality, chance)
only if these hold; :func:`consistency` lists every one it breaks, in words
that name the field and the rule.  :mod:`~riskmath.game.serialize` calls it
on every state it loads, after checking each field's JSON shape, and
``GameState.problems`` (through :func:`riskmath.game.serialize.problems`)
on a state built by hand.  Where an invariant is a rule the engine defines
elsewhere (the set-up flags of the game's context, the caps, the hand
limit, a trade-down), it calls that definition.

The invariants (the few that are ranges of one field, such as the counters
not being negative and ``rng`` fitting in 64 bits, are checked with the
fields' shapes by :mod:`~riskmath.game.serialize` first):

Phase and rules
  * the phase is one the rules and the game can reach: ``SETUP_PILE`` only in
    the 1993 two-player game with a chosen set-up; ``SETUP_CLAIM`` only in a
    claimed set-up, ``SETUP_DEAL`` only in a dealt or random one;
    ``SETUP_CAPITAL`` only in Capital RISK; ``SETUP_MISSION`` only in Secret
    Mission RISK; ``DEFEND`` only when defenders choose their dice;
    ``TRADE_DOWN`` only with ``elimination_trade_at``; ``FORTIFY`` only when
    fortifying is allowed;
  * ``turn`` is 0 exactly in the set-up phases, and at most ``max_turns``.
Players
  * ``first`` is -1 exactly in ``SETUP_ORDER``, else a player;
  * ``player`` is -1 exactly in ``SETUP_ORDER``, ``SETUP_MISSION`` and
    ``GAME_OVER``; else a player, alive; in ``SETUP_CAPITAL`` the one whose
    turn it is to choose (``first`` round the table);
  * ``alive`` is all true during the set-up; a player is dead exactly when
    ``killed_by`` names its killer (another player); a dead player holds no
    territory and no card; an alive one holds territory after the set-up;
  * at least two players are alive unless the game is over; ``winner`` is set
    exactly in ``GAME_OVER`` (an alive player) unless the game ended as a
    draw, which needs a turn cap reached.
Territories
  * during the set-up a territory is unowned with 0 armies or owned with
    1 .. the set-up cap (2 for the neutrals of the article's rule); after it
    every territory is owned with 1 .. ``cap`` armies, except the target of
    the capture in ``OCCUPY``, which has 0;
  * neutral owners exist only in the two-player variants that have them.
Cards
  * every card is a card of the game; after the set-up deck + discard + hands
    are exactly the game's deck (less the headquarters' cards in Capital
    RISK); during it the hands and the discard pile are empty and the deck is
    the territory cards not yet dealt (all of them in a claimed set-up);
  * hands are within the rules' limits (:func:`~riskmath.game.position.most_cards`):
    with ``forced_trade_at`` and ``elimination_trade_at`` both set, at most
    the larger of the two, except the player to move holding a victim's
    cards to trade down (once the game is over: the winner, or the player
    whose elimination of another completed the winner's mission); the player
    to move in ``ATTACK``, ``OCCUPY``, ``FORTIFY`` and ``DRAW`` holds one
    fewer, unless trading down (the turn's card is still to be drawn);
  * ``sets_traded``, ``pool`` and ``bonus_taken`` are not negative; ``pool``
    is 0 except in ``REINFORCE`` (where it is 0 only while the player to
    move holds a set to trade), ``TRADE_DOWN`` (and ``GAME_OVER`` when a
    placement completed a mission, or when a mission checked at the start of
    the winner's turn won it: the turn's income is left in the pool);
    ``bonus_taken`` is 0 without a territory-card bonus, and 0 before any set
    is traded; it is 0 or 2 under ``plus2_once_per_turn`` (one +2 a turn) and
    even under ``plus2_per_matching_territory``; ``bonus`` is
    empty; ``captured`` is false in ``REINFORCE`` (no attack yet this turn)
    and during the set-up; ``moved`` lists territories in pairs (a
    fortification marks its source and its target).
Set-up bookkeeping
  * ``setup_left`` holds one entry per owner, between 0 and the starting
    armies (0 for a player once the placements are over: in
    ``SETUP_CAPITAL`` and after the set-up), and exactly the starting armies before the territories are
    claimed or dealt (``SETUP_ORDER``, ``SETUP_MISSION``); an owner's armies on the board and those it has
    left add up to at most its starting armies during the set-up (fewer only where a cap left some unplaced),
    and exactly to them while territories are claimed or dealt (``SETUP_CLAIM``, ``SETUP_DEAL``,
    ``SETUP_PILE``); every player holds a territory in ``SETUP_PLACE`` and
    ``SETUP_CAPITAL``; ``queue`` is empty except in ``SETUP_PLACE``, where it lists
    ``(owner, armies)`` for the player to move and neutrals, each due at most
    what the owner has left, and the first owner has a territory with room;
  * ``dealt`` is between 0 and the number of territories; in
    ``SETUP_DEAL`` it counts the territories dealt;
  * ``piles`` is empty except while the 1993 two-player deal and choice run
    (``SETUP_DEAL``, ``SETUP_PILE``): one entry per territory, -1 or a pile
    0-2, a territory in a pile is unowned, and at least two piles are left to
    choose from in ``SETUP_PILE``.
Battles
  * ``pending`` is set exactly in ``DEFEND``, ``ROLL`` (an ``"attack"``) and
    ``BLITZ`` (a ``"blitz"``); its source is the attacker's, its target
    borders it and belongs to someone else with at least one army; the
    attacker is the player to move (in ``DEFEND``, the player to move is the
    defender, or the other player for a neutral in a two-player game); an
    attack's dice are 1 .. ``min(attacker_max_dice, armies - 1)``, its
    defense None in ``DEFEND`` and 1 .. ``min(defender_max_dice, defending
    armies)`` in ``ROLL``; a blitz's ``stop_at`` is 0 .. armies - 2 and its
    defense None;
  * ``occupy`` is set exactly in ``OCCUPY``: source and target border each
    other and belong to the player to move, the target has 0 armies and
    ``least`` is 1 .. the armies able to move (1 unless ``occupy_min`` is
    ``"dice_rolled"``, then at most ``attacker_max_dice``);
  * ``trade_down`` is true only in ``OCCUPY`` (with ``elimination_trade_at``
    cards or more in hand), ``TRADE_DOWN`` (always) and ``GAME_OVER`` (the
    last elimination), where the player still has cards to trade or armies to
    place.
Turn bookkeeping
  * ``captured`` is false during the set-up and true in ``DRAW``, where the
    deck is not empty;
  * ``moved`` is empty except with the experts' fortification (in
    ``FORTIFY``, and in ``DRAW`` / ``GAME_OVER`` after it): distinct
    territories, the player's while it fortifies.
Missions and capitals
  * ``missions`` is empty without Secret Mission RISK; else distinct missions
    of the game's deck, fewer than the players while they are dealt, one per
    player from then on;
  * ``capitals`` is empty without Capital RISK and before ``SETUP_CAPITAL``;
    distinct territories, each chosen by its chooser while they choose, one
    per player from then on.
Generator
  * ``rng`` is a 64-bit unsigned integer.
Finally, a decision node must have at least one legal action and a chance
node at least one outcome (what the engine would otherwise be stuck on).
"""

from __future__ import annotations

from collections import Counter

from riskmath.game.cards import trade_down_needed
from riskmath.game.chance import chance_outcomes, is_chance
from riskmath.game.context import GameContext
from riskmath.game.legality import enumerate_actions
from riskmath.game.missions import missions_for
from riskmath.game.phase import Phase
from riskmath.game.position import (
    Position,
    attacker_dice_most,
    cards_in_play,
    defender_dice_most,
    defense_chooser,
    holds_set,
    most_cards,
    room,
    traded_down,
)
from riskmath.game.setup import capital_chooser, pile_chooser

__all__ = ["consistency"]


_SETUP = frozenset(phase for phase in Phase if phase.name.startswith("SETUP"))
_BATTLE = {Phase.DEFEND: "attack", Phase.ROLL: "attack", Phase.BLITZ: "blitz"}


def _phase_allowed(game: GameContext, phase: Phase) -> str | None:
    """Why the rules of ``game`` never reach ``phase`` (None if they may)."""
    rules = game.rules
    claiming = game.claiming
    reasons = {
        Phase.SETUP_PILE: (
            game.chooses_piles,
            "piles are chosen only in the 1993 two-player game with a chosen set-up",
        ),
        Phase.SETUP_CLAIM: (claiming, "these rules deal the territories, nobody claims them"),
        Phase.SETUP_DEAL: (not claiming, "these rules have the territories claimed, not dealt"),
        Phase.SETUP_CAPITAL: (rules.capital != "none", "these rules have no headquarters (capital='none')"),
        Phase.SETUP_MISSION: (rules.missions != "none", "these rules have no missions (missions='none')"),
        Phase.DEFEND: (game.defender_decides, "defenders do not choose their dice in this game"),
        Phase.TRADE_DOWN: (rules.elimination_trade_at is not None, "these rules have no trade-down"),
        Phase.FORTIFY: (rules.fortify != "none", "these rules have no fortification"),
    }
    allowed, reason = reasons.get(phase, (True, ""))
    return None if allowed else reason


def consistency(game: GameContext, pos: Position) -> list[str]:
    """What breaks the invariants of the module docstring (empty: none); the fields must have the right shape."""
    found: list[str] = []
    names, n, players = game.board.territories, len(game.board), game.players
    phase = pos.phase
    setup = phase in _SETUP
    over = phase is Phase.GAME_OVER
    why = _phase_allowed(game, phase)
    if why is not None:
        found.append(f"phase {phase.name} is impossible here: {why}")
    # -- turn, first, player
    if setup != (pos.turn == 0):
        found.append(f"turn {pos.turn} does not match phase {phase.name} (turn 0 is the set-up, and only it)")
    if game.max_turns is not None and pos.turn > game.max_turns:
        found.append(f"turn {pos.turn} is beyond the turn cap {game.max_turns}")
    if (phase is Phase.SETUP_ORDER) != (pos.first == -1):
        found.append(f"first is {pos.first} in {phase.name} (-1 exactly before the first player is drawn)")
    nobody = phase in (Phase.SETUP_ORDER, Phase.SETUP_MISSION, Phase.GAME_OVER)
    if nobody and pos.player != -1:
        found.append(f"player is {pos.player} in {phase.name}, where nobody is to move (-1)")
    if not nobody and not 0 <= pos.player < players:
        found.append(f"the player to move, {pos.player}, is not a player")
    elif not nobody and not pos.alive[pos.player]:
        found.append(f"the player to move, {pos.player}, is eliminated")
    # -- players alive and dead
    for p in range(players):
        dead, killer = not pos.alive[p], pos.killed_by[p]
        if dead and setup:
            found.append(f"player {p} is eliminated during the set-up")
        if dead != (killer >= 0):
            found.append(f"player {p} is {'eliminated' if dead else 'alive'} but killed_by is {killer}")
        elif killer == p:
            found.append(f"player {p} is marked as eliminated by itself")
        if dead and p in pos.owner:
            found.append(f"player {p} is eliminated but still holds territory")
        if dead and pos.hands[p]:
            found.append(f"player {p} is eliminated but still holds cards {pos.hands[p]}")
        if not dead and not setup and p not in pos.owner:
            found.append(f"player {p} is alive but holds no territory")
    if not over and sum(pos.alive) < 2:
        found.append(f"only {sum(pos.alive)} player(s) alive but the game is not over")
    if pos.winner is not None and not over:
        found.append(f"winner {pos.winner} is set but the game is in {phase.name}")
    if over and pos.winner is None and (game.max_turns is None or pos.turn < game.max_turns):
        found.append("the game is over without a winner, but no turn cap was reached")
    if over and pos.winner is not None and not pos.alive[pos.winner]:
        found.append(f"the winner, player {pos.winner}, is eliminated")
    # -- territories
    neutrals = range(players, game.owners)
    for t in range(n):
        owner, armies = pos.owner[t], pos.armies[t]
        if owner < 0:
            if not setup:
                found.append(f"{names[t]} has no owner")
            elif armies != 0:
                found.append(f"{names[t]} has no owner but {armies} armies")
            continue
        most = game.cap if not setup else max(game.setup_cap, 2 if owner in neutrals else 1)
        if phase is Phase.OCCUPY and pos.occupy is not None and t == pos.occupy.target:
            if armies != 0:
                found.append(f"{names[t]}, the capture being occupied, has {armies} armies (0 until they move in)")
        elif not 1 <= armies <= most:
            found.append(f"{names[t]} is held with {armies} armies (1 to {most} allowed)")
    if found:
        return found  # the checks below read owners, armies and the player to move
    found += _card_problems(game, pos, setup)
    found += _setup_problems(game, pos, setup)
    found += _battle_problems(game, pos)
    found += _turn_problems(game, pos, setup)
    if found:
        return found
    # -- the engine can go on: a decision node has an action, a chance node an outcome
    if not over:
        if is_chance(game, pos):
            if phase not in (Phase.ROLL, Phase.BLITZ) and not chance_outcomes(game, pos):
                found.append(f"the chance node {phase.name} has no outcome")
        elif not any(count > 0 for count, _ in enumerate_actions(game, pos)):
            found.append(f"player {pos.player} has no legal action in {phase.name}")
    return found


#: The set-up phases in which every territory taken so far holds the one army it was claimed or dealt with.
_ONE_ARMY_EACH = frozenset({Phase.SETUP_CLAIM, Phase.SETUP_DEAL, Phase.SETUP_PILE})

#: The phases of a turn after its reinforcement and before its card is drawn, whose player to move is the turn's.
_BEFORE_THE_DRAW = frozenset({Phase.ATTACK, Phase.OCCUPY, Phase.FORTIFY, Phase.DRAW})


def _card_problems(game: GameContext, pos: Position, setup: bool) -> list[str]:
    found: list[str] = []
    rules, names = game.rules, game.board.territories
    cards = Counter(pos.deck) + Counter(pos.discard)
    for hand in pos.hands:
        cards += Counter(hand)
    if setup:
        if pos.discard or any(pos.hands):
            found.append("cards are in hands or discarded during the set-up")
        if set(cards) - set(names) or any(k > 1 for k in cards.values()):
            found.append(f"the set-up deck {sorted(cards.elements())[:10]}... is not territory cards, once each")
    else:
        expected = Counter(cards_in_play(game, pos.capitals))
        if cards != expected:
            lost = sorted((expected - cards).elements())
            extra = sorted((cards - expected).elements())
            found.append(f"cards do not add up to the deck: missing {lost}, extra {extra}"[:400])
    # Who may hold a victim's cards to trade down: the player to move; once the game is over, the winner or, when
    # a capture's elimination completed another player's mission, the capturer (who eliminated someone).
    takers = {pos.winner, *pos.killed_by} if pos.phase is Phase.GAME_OVER else {pos.player}
    for p, hand in enumerate(pos.hands):
        most = most_cards(game, trading_down=p in takers and pos.trade_down)
        if most is not None and len(hand) > most:
            found.append(f"player {p} holds {len(hand)} cards, more than the rules allow ({most})")
        elif (
            most is not None
            and p == pos.player
            and pos.phase in _BEFORE_THE_DRAW
            and not pos.trade_down
            and len(hand) >= most
        ):
            # Once its armies are placed, the player to move holds fewer cards than the forced trade asks for, or
            # than a victim's cards are traded down at; the card drawn at the end of the turn makes the limit.
            found.append(
                f"player {p} holds {len(hand)} cards in {pos.phase.name}, where the player to move holds at most "
                f"{most - 1} (a card drawn at the end of the turn would make {len(hand) + 1}, more than {most})"
            )
    if pos.pool and pos.phase not in (Phase.REINFORCE, Phase.TRADE_DOWN, Phase.GAME_OVER):
        found.append(f"pool is {pos.pool} in {pos.phase.name} (armies are placed in REINFORCE and TRADE_DOWN only)")
    if pos.phase is Phase.REINFORCE and not pos.pool and not holds_set(game, pos.hands[pos.player]):
        # (the reinforcement ends with its last army unless a set is left to trade: forced, or, with no minimum
        # income, the only thing to do at the start of the turn)
        found.append("pool is 0 in REINFORCE, and the player to move holds no set to trade")
    if pos.bonus_taken and (setup or rules.territory_card_bonus == "none"):
        found.append(f"bonus_taken is {pos.bonus_taken} where no territory-card bonus is received")
    elif rules.territory_card_bonus == "plus2_once_per_turn" and pos.bonus_taken not in (0, 2):
        found.append(f"bonus_taken is {pos.bonus_taken}: under plus2_once_per_turn a turn's bonus is 0 or 2 armies")
    elif pos.bonus_taken % 2:
        found.append(f"bonus_taken is {pos.bonus_taken}: under plus2_per_matching_territory bonuses come in twos")
    if pos.bonus:
        found.append(f"bonus must be empty in every rule set, got {pos.bonus!r}"[:200])
    if pos.phase is Phase.DRAW and not pos.deck:
        found.append("DRAW with an empty deck")
    if pos.phase in (Phase.DRAW, Phase.OCCUPY, Phase.TRADE_DOWN) and not pos.captured:
        found.append(f"{pos.phase.name} without a capture this turn")
    if setup and pos.captured:
        found.append("captured is true during the set-up")
    if pos.captured and pos.phase is Phase.REINFORCE:
        found.append("captured is true in REINFORCE, before the turn's first attack")
    if pos.bonus_taken and not pos.sets_traded:
        found.append(f"bonus_taken is {pos.bonus_taken}, but no set was ever traded")
    if len(pos.moved) % 2:
        found.append(f"moved lists {len(pos.moved)} territories: every fortification marks two")
    return found


def _setup_problems(game: GameContext, pos: Position, setup: bool) -> list[str]:
    found: list[str] = []
    rules, names, n, players = game.rules, game.board.territories, len(game.board), game.players
    phase = pos.phase
    claiming = game.claiming
    for o, left in enumerate(pos.setup_left):
        most = game.starting_armies[o]
        if left and o < players and (not setup or phase is Phase.SETUP_CAPITAL):  # (a neutral's may stay: the
            # article's neutrals cap at 2 a territory; headquarters are chosen once every army is placed)
            found.append(f"{game.owner_name(o)} has {left} set-up armies left after the placements")
        elif left > most:
            found.append(f"{game.owner_name(o)} has {left} set-up armies left, more than the {most} it starts with")
        elif left != most and phase in (Phase.SETUP_ORDER, Phase.SETUP_MISSION):
            found.append(f"{game.owner_name(o)} has {left} set-up armies left in {phase.name}, before any is placed")
    if setup and pos.sets_traded:
        found.append(f"sets_traded is {pos.sets_traded} during the set-up")
    if setup and len(pos.setup_left) == len(game.starting_armies):
        # Every army on the board during the set-up came from its owner's starting armies: with those left, no
        # more than it started with (fewer where a cap on a small board left some unplaced), and exactly as many
        # while territories are claimed or dealt (each one army).  Hands territories to another owner, or drops
        # armies a claim still needs, and this is broken (a loaded state then played on into a negative count
        # or a player without territories to place on).
        placed = [0] * len(pos.setup_left)
        for t, o in enumerate(pos.owner):
            if 0 <= o < len(placed):
                placed[o] += pos.armies[t]
        for o, left in enumerate(pos.setup_left):
            most = game.starting_armies[o]
            if placed[o] + left > most or (phase in _ONE_ARMY_EACH and placed[o] + left != most):
                found.append(
                    f"{game.owner_name(o)} has {placed[o]} armies on the board and {left} left to place during the "
                    f"set-up, {'more than' if placed[o] + left > most else 'not'} the {most} it starts with"
                )
        if phase in (Phase.SETUP_PLACE, Phase.SETUP_CAPITAL):
            holders = set(pos.owner)
            found += [f"player {o} holds no territory in {phase.name}" for o in range(players) if o not in holders]
    unowned = {names[t] for t in range(n) if pos.owner[t] < 0}
    if any(o >= players for o in pos.owner) and game.neutrals == 0:
        found.append("a territory is held by a neutral in a game without neutrals")
    if phase in (Phase.SETUP_ORDER, Phase.SETUP_MISSION, Phase.SETUP_CLAIM) and (pos.dealt or pos.piles):
        found.append(f"dealt is {pos.dealt} and piles {pos.piles} before the deal")
    if phase in (Phase.SETUP_ORDER, Phase.SETUP_MISSION) and len(unowned) < n:
        found.append(f"territories are owned in {phase.name}, before the claim or deal")
    if phase in (Phase.SETUP_ORDER, Phase.SETUP_MISSION, Phase.SETUP_CLAIM) and len(pos.deck) != n:
        found.append(f"the deck must hold every territory card in {phase.name}")
    if phase is Phase.SETUP_DEAL:
        if game.deals_piles:
            in_piles = {names[t] for t, k in enumerate(pos.piles) if k >= 0}
            if set(pos.deck) != set(names) - in_piles or pos.dealt != len(in_piles) or len(unowned) < n:
                found.append("the deck, dealt and piles disagree during the 1993 two-player deal")
        elif set(pos.deck) != unowned or pos.dealt != n - len(unowned):
            found.append(f"the deck must hold the {len(unowned)} unowned territories' cards, and dealt count the rest")
        if pos.dealt >= n:
            found.append(f"dealt is {pos.dealt} but the deal is over")
    if phase in (Phase.SETUP_PLACE, Phase.SETUP_CAPITAL, Phase.SETUP_PILE) and len(pos.deck) != (n if claiming else 0):
        found.append(f"the deck must be {'full' if claiming else 'empty'} in {phase.name}")
    if phase in (Phase.SETUP_PLACE, Phase.SETUP_CAPITAL) and unowned:
        found.append(f"territories are still unowned in {phase.name}: {sorted(unowned)[:5]}")
    # piles: the 1993 two-player deal and choice
    if pos.piles and phase not in (Phase.SETUP_DEAL, Phase.SETUP_PILE):
        found.append(f"piles are set in {phase.name}")
    if phase is Phase.SETUP_PILE:
        piles_left = set(pos.piles) - {-1}
        if len(pos.piles) != n or len(piles_left) < 2:
            found.append("SETUP_PILE needs a pile for every territory and at least two piles left")
        elif any((k >= 0) != (pos.owner[t] < 0) for t, k in enumerate(pos.piles)):
            found.append("a territory in a pile is owned, or one out of the piles is not")
        elif pos.player != pile_chooser(pos.first, len(piles_left)):
            found.append(f"player {pos.player} is not the one choosing a pile")
    # queue: set-up placements
    if pos.queue and phase is not Phase.SETUP_PLACE:
        found.append(f"queue {pos.queue} is set in {phase.name}")
    if phase is Phase.SETUP_PLACE:
        if not pos.queue:
            found.append("SETUP_PLACE with an empty queue")
        owners_due = [o for o, _ in pos.queue]
        for o, k in pos.queue:
            if (o != pos.player and o < players) or not 1 <= k <= pos.setup_left[o]:
                found.append(f"queue entry ({o}, {k}) is not due (owner placing now, 1 .. armies it has left)")
        if len(set(owners_due)) != len(owners_due):
            found.append(f"queue {pos.queue} names an owner twice")
        if not found:
            first = pos.queue[0][0]
            if not any(pos.owner[t] == first and room(game, pos, t, setup=True) for t in range(n)):
                found.append(f"{game.owner_name(first)} places next but has no territory with room")
    # missions
    if rules.missions == "none":
        if pos.missions:
            found.append(f"missions {pos.missions} are not missions of this game (it has none)")
    else:
        deck = missions_for(rules.missions, players)
        unknown = [m for m in pos.missions if m not in deck]
        if unknown or len(set(pos.missions)) != len(pos.missions):
            found.append(f"missions {pos.missions} are not distinct missions of this game")
        dealing = phase in (Phase.SETUP_ORDER, Phase.SETUP_MISSION)
        if dealing and len(pos.missions) >= players:
            found.append(f"{len(pos.missions)} missions dealt while dealing to {players} players")
        if phase is Phase.SETUP_ORDER and pos.missions:
            found.append("missions dealt before the first player is drawn")
        if not dealing and len(pos.missions) != players:
            found.append(f"{len(pos.missions)} missions for {players} players")
    # capitals
    chosen = len(pos.capitals)
    if len(set(pos.capitals)) != chosen:
        found.append(f"capitals {pos.capitals} name a territory twice")
    if rules.capital == "none" or (setup and phase is not Phase.SETUP_CAPITAL):
        if pos.capitals:
            found.append(f"capitals {pos.capitals} are set in {phase.name}, where there are no headquarters yet")
    elif phase is Phase.SETUP_CAPITAL:
        if chosen >= players or pos.player != capital_chooser(pos.first, chosen, players):
            found.append(f"player {pos.player} is not the one to choose headquarters number {chosen + 1}")
        for i, t in enumerate(pos.capitals):
            if pos.owner[t] != capital_chooser(pos.first, i, players):
                found.append(f"headquarters {names[t]} is not held by the player who chose it")
    elif chosen != players:
        found.append(f"{chosen} headquarters for {players} players")
    return found


def _battle_problems(game: GameContext, pos: Position) -> list[str]:
    found: list[str] = []
    rules, names = game.rules, game.board.territories
    phase, pending, occupy = pos.phase, pos.pending, pos.occupy
    combat = rules.combat
    if (pending is not None) != (phase in _BATTLE):
        found.append(f"pending is {pending} in {phase.name} (a battle is pending in DEFEND, ROLL and BLITZ only)")
    elif pending is not None:
        kind, source, target, dice, attacker, defense = pending
        if kind != _BATTLE[phase]:
            found.append(f"a pending {kind!r} in {phase.name}")
        if pos.owner[source] != attacker:
            found.append(f"the attack's source {names[source]} is not the attacker's (player {attacker})")
        if pos.owner[target] == attacker:
            found.append(f"the attack's target {names[target]} belongs to the attacker")
        if target not in game.neighbors[source]:
            found.append(f"{names[source]} does not border {names[target]}")
        if pos.armies[source] < 2:
            found.append(f"{names[source]} attacks with {pos.armies[source]} army")
        if phase is Phase.DEFEND:
            chooser = defense_chooser(game, pos, target, attacker)
            if pos.player != chooser:
                found.append(f"player {pos.player} chooses the defense of {names[target]}, not {chooser}")
        elif pos.player != attacker:
            found.append(f"the attacker {attacker} is not the player to move {pos.player}")
        if not found and kind == "attack":
            most = attacker_dice_most(game, pos, source)
            if not 1 <= dice <= most:
                found.append(f"the attack throws {dice} dice (1 to {most} allowed)")
            most = defender_dice_most(game, pos, target)
            if phase is Phase.DEFEND and defense is not None:
                found.append(f"the defense is {defense} before the defender chose it")
            if phase is Phase.ROLL and (defense is None or not 1 <= defense <= most):
                found.append(f"the defense throws {defense} dice (1 to {most} allowed)")
        elif not found:
            if not 0 <= dice <= pos.armies[source] - 2:
                found.append(f"the blitz stops at {dice} (0 to {pos.armies[source] - 2} allowed)")
            if defense is not None:
                found.append(f"a blitz has a defense {defense}")
    if (occupy is not None) != (phase is Phase.OCCUPY):
        found.append(f"occupy is {occupy} in {phase.name} (set in OCCUPY only)")
    elif occupy is not None:
        source, target, least = occupy
        for t in (source, target):
            if pos.owner[t] != pos.player:
                found.append(f"{names[t]} of the capture is not held by the player to move")
        if target not in game.neighbors[source]:
            found.append(f"{names[source]} does not border {names[target]}")
        most = combat.attacker_max_dice if game.occupy_dice_rolled else 1
        if not 1 <= least <= min(most, pos.armies[source] - 1):
            found.append(f"the capture must move in {least} armies (1 to {min(most, pos.armies[source] - 1)} allowed)")
    if pos.trade_down and phase not in (Phase.OCCUPY, Phase.TRADE_DOWN, Phase.GAME_OVER):
        found.append(f"trade_down is set in {phase.name}")
    if phase is Phase.OCCUPY and pos.trade_down:
        at, hand = rules.elimination_trade_at, len(pos.hands[pos.player])
        if at is None or not trade_down_needed(hand, at, rules.elimination_trade_to):
            found.append(f"trade_down is set with {hand} cards in hand (a trade-down follows taking {at} or more)")
    if phase is Phase.TRADE_DOWN:
        if not pos.trade_down:
            found.append("TRADE_DOWN without trade_down")
        elif pos.pool == 0 and traded_down(game, pos):
            found.append(f"TRADE_DOWN with {len(pos.hands[pos.player])} cards and nothing to place")
    return found


def _turn_problems(game: GameContext, pos: Position, setup: bool) -> list[str]:
    found: list[str] = []
    moved = pos.moved
    if moved:
        if game.rules.fortify != "experts" or pos.phase not in (Phase.FORTIFY, Phase.DRAW, Phase.GAME_OVER):
            found.append(f"moved {moved} is set in {pos.phase.name} (the experts' fortification only)")
        elif len(set(moved)) != len(moved):
            found.append(f"moved {moved} names a territory twice")
        elif pos.phase is Phase.FORTIFY and any(pos.owner[t] != pos.player for t in moved):
            found.append(f"moved {moved} names territories not the player's")
    return found
