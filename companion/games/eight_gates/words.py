"""Both languages of 8 Gates: every sentence the players read (log lines, why a move is not allowed now,
refusals), in English with its Korean twin, in the page's words for this game (web/static/games/eight-gates.js)."""
from __future__ import annotations

from companion.games.eight_gates.scoring import describe, is_set
from companion.rules.said import Said, counted, listed

Pair = tuple[str, str]  # a part of a sentence, in English and in Korean

# The setup and the turn
DEAL_OR_CHOOSE = Said(
    "Deal each player one card face up and enter the values (highest is the Archivist), or choose one.",
    "플레이어마다 카드를 한 장씩 앞면으로 나눠 주고 값을 입력하세요(가장 높은 카드를 받은 플레이어가 아키비스트). 또는 아키비스트를 직접 정하세요.")
ARCHIVIST_CHOSEN = Said("The Archivist has already been chosen.", "아키비스트는 이미 정해졌습니다.")
MIDDLE_ONCE = Said("The middle's starting Gates are placed once, after the Archivist is chosen.",
                   "가운데의 시작 관문은 아키비스트를 정한 뒤 한 번만 놓습니다.")
CHOSEN_BY_TABLE: Pair = ("Chosen by the table", "테이블에서 정함")
ONLY_IN_A_TURN = Said("That can only be done during a player's turn.", "플레이어의 차례 중에만 할 수 있습니다.")
GAME_ENDS = Said("The game is over: everyone reveals one Run or one Set from their hand (4 points per card).",
                 "게임이 끝났습니다: 모두 손패에서 런 하나 또는 세트 하나를 공개합니다(카드당 4점).")

# Playing Gates, flipping, ending the turn
BOTH_PLAYED = Said("You have played both Gates this turn; follow their text, then end your turn.",
                   "이번 차례에 관문 두 장을 모두 놓았습니다. 관문 효과를 따른 뒤 차례를 끝내세요.")
PLAYED_FLIPPED = Said("You have played your Gate this turn (your reference card is already flipped); end your turn.",
                      "이번 차례의 관문을 이미 놓았습니다(참조 카드는 이미 뒤집었습니다). 차례를 끝내세요.")
PLAYED_MAY_FLIP = Said(
    "You have played your Gate this turn; you may flip your reference card once per game to play a second.",
    "이번 차례의 관문을 이미 놓았습니다. 게임당 한 번 참조 카드를 뒤집어 관문을 하나 더 놓을 수 있습니다.")
FLIP_AFTER_FIRST = Said("Flip your reference card after playing your first Gate of the turn.",
                        "이번 차례의 첫 관문을 놓은 뒤에 참조 카드를 뒤집으세요.")
GATE_FIRST = Said("Play a Gate first; its text follows the placement.",
                  "먼저 관문을 놓으세요. 관문 효과는 놓은 뒤에 따릅니다.")
PLAY_BEFORE_END = Said("You must play a Gate from your hand before ending your turn.",
                       "차례를 끝내기 전에 손패에서 관문을 하나 놓아야 합니다.")
SECOND_BEFORE_END = Said("You flipped your reference card: play your second Gate before ending your turn.",
                         "참조 카드를 뒤집었습니다: 차례를 끝내기 전에 두 번째 관문을 놓으세요.")
ALL_RUINS = Said("Every card in the middle is already Ruins.", "가운데의 카드가 모두 이미 폐허입니다.")

# The reveal
REVEAL_AT_END = Said("Runs and Sets are revealed when the game ends.", "런과 세트는 게임이 끝날 때 공개합니다.")
ENTER_HAND_FIRST = Said("Enter your whole hand first to get a proposal.", "제안을 받으려면 먼저 손패 전체를 입력하세요.")
SCORES_FINAL = Said("Every hand is revealed: the scores are final.", "모든 손패를 공개했습니다: 점수가 확정되었습니다.")

# What to do once a hand's count is put right (draw_first)
ENTER_THE_HAND: Pair = ("enter the hand", "손패를 입력하세요")
ENTER_THE_HAND_AGAIN: Pair = ("enter the hand again", "손패를 다시 입력하세요")
REVEAL_AGAIN: Pair = ("reveal again", "다시 공개하세요")


def dealt(pairs: list[tuple[str, int]]) -> Said:
    """The values dealt for the Archivist, by player; raises nothing."""
    shown = ", ".join(f"{name} {value}" for name, value in pairs)
    return Said(f"Dealt for the Archivist: {shown}.", f"아키비스트를 정하려고 나눠 준 카드: {shown}.")


def tied(names: list[str], high: int) -> Said:
    """The players tied on the highest card deal again; raises nothing."""
    english, korean = listed(names)
    return Said(f"{english} tied on {high}: deal them one card each again.",
                f"{korean}: 모두 {high}, 동점입니다. 이 플레이어들에게 카드를 한 장씩 다시 나눠 주세요.")


def highest_card(name: str, high: int) -> Pair:
    """Why that player is the Archivist: the highest card dealt; raises nothing."""
    return (f"{name} has the highest card ({high})", f"{name}의 카드가 가장 높음({high})")


def archivist_named(why: Pair, name: str) -> Said:
    """The Archivist named (and why) and the hands drawn; raises nothing."""
    return Said(f"{why[0]}: {name} is the Archivist and draws 1 card; everyone else draws 2.",
                f"{why[1]}: {name}이(가) 아키비스트이며 카드 1장을 뽑습니다. 나머지는 모두 2장을 뽑습니다.")


def lay_middle(name: str) -> Said:
    """The Archivist lays the 3 starting Gates; raises nothing."""
    return Said(f"{name} places the top 3 cards of the deck in a row: enter their values.",
                f"{name}이(가) 덱 맨 위 카드 3장을 한 줄로 놓습니다: 값을 입력하세요.")


def middle_opens(values: tuple[int, ...]) -> Said:
    """The starting Gates' values; raises nothing."""
    shown = ", ".join(map(str, values))
    return Said(f"The middle opens with {shown}.", f"가운데의 시작 관문: {shown}.")


def turn_begins(round_now: int, rounds: int, name: str) -> Said:
    """A turn begins: the round, the player, the 2 cards drawn; raises nothing."""
    last = (" (the last round)", " (마지막 라운드)") if round_now == rounds else ("", "")
    return Said(f"Round {round_now} of {rounds}{last[0]}: {name}'s turn; they draw 2 cards.",
                f"{rounds}라운드 중 {round_now}라운드{last[1]}: {name}의 차례입니다. 카드 2장을 뽑습니다.")


def turn_ends(name: str) -> Said:
    """A player ends the turn; raises nothing."""
    return Said(f"{name} ends the turn.", f"{name}의 차례가 끝났습니다.")


def face_down(count: int, rounds: int) -> Said:
    """The Archivist's round card face down; raises nothing."""
    return Said(f"The Archivist puts a card face down beside the deck: {count} of {rounds}.",
                f"아키비스트가 덱 옆에 카드 한 장을 뒷면으로 놓습니다: {count} / {rounds}.")


def whose_turn(name: str) -> Said:
    """Whose turn it is (to another player); raises nothing."""
    return Said(f"It is {name}'s turn.", f"{name}의 차례입니다.")


def no_cards_to_play(name: str) -> Said:
    """A hand with no Gate to play; raises nothing."""
    return Said(f"{name} has no cards in hand to play.", f"{name}의 손패에 낼 카드가 없습니다.")


def flipped_already(name: str) -> Said:
    """The reference card flips once per game; raises nothing."""
    return Said(f"{name} has already flipped the reference card; it flips only once per game.",
                f"{name}은(는) 이미 참조 카드를 뒤집었습니다. 참조 카드는 게임당 한 번만 뒤집습니다.")


def reveal_something(name: str, held: int) -> Said:
    """An empty reveal from a hand that holds cards is refused: "Each player reveals a Run or Set of cards from
    their hand" (one card is a Set of one); raises nothing."""
    return Said(f"{name} holds {counted(held, 'card')}: reveal a Run or Set from them (one card is a Set of one).",
                f"{name}의 손에 카드가 {held}장 있습니다: 그중 런이나 세트를 공개하세요 (카드 한 장도 세트입니다).")


def revealed_already(name: str) -> Said:
    """A player who has revealed cannot reveal again; raises nothing."""
    return Said(f"{name} has already revealed.", f"{name}은(는) 이미 공개했습니다.")


def hand_gone(name: str) -> Said:
    """A revealed player's hand no longer counts; raises nothing."""
    return Said(f"{name} has already revealed: that hand no longer counts.",
                f"{name}은(는) 이미 공개했습니다: 그 손패는 더 이상 세지 않습니다.")


def cell_taken(x: int, y: int, value: int | None) -> Said:
    """A Gate cannot go on a taken cell (value None for Ruins); raises nothing."""
    what = ("Ruins", "폐허가") if value is None else (f"a {value}", f"값 {value} 관문이")
    return Said(f"The cell ({x}, {y}) already holds {what[0]}; choose an empty cell.",
                f"({x}, {y}) 칸에는 이미 {what[1]} 있습니다. 빈 칸을 고르세요.")


def cell_diagonal(x: int, y: int) -> Said:
    """A Gate cannot go on a cell touching Gates only at the corners; raises nothing."""
    return Said(f"The cell ({x}, {y}) only touches a Gate corner to corner; a Gate must share a side with another.",
                f"({x}, {y}) 칸은 관문과 대각선으로만 닿습니다. 관문은 다른 관문과 변을 맞대야 합니다.")


def cell_alone(x: int, y: int) -> Said:
    """A Gate cannot go on a cell next to nothing; raises nothing."""
    return Said(f"The cell ({x}, {y}) is not next to any Gate; place it beside a Gate or Ruins in the middle.",
                f"({x}, {y}) 칸 옆에는 관문이 없습니다. 가운데의 관문이나 폐허 옆에 놓으세요.")


def nothing_to_destroy(x: int, y: int) -> Said:
    """No Gate on the cell to destroy; raises nothing."""
    return Said(f"There is no Gate on ({x}, {y}) to destroy.", f"({x}, {y})에는 파괴할 관문이 없습니다.")


def ruins_already(x: int, y: int) -> Said:
    """The Gate on the cell is Ruins already; raises nothing."""
    return Said(f"The Gate on ({x}, {y}) is already Ruins.", f"({x}, {y})의 관문은 이미 폐허입니다.")


def placed(name: str, value: int, x: int, y: int, points: int) -> Said:
    """A Gate played and what it scored; raises nothing."""
    if points:
        gates, gained = counted(points, "Gate"), counted(points, "point")
        scored = (f"next to a {value}, {gates} of value {value} in the middle: +{gained}",
                  f"옆에 같은 값이 있고 가운데에 값 {value} 관문이 {points}장 있습니다: +{points}점")
    else:
        scored = (f"no {value} next to it: no points", "옆에 같은 값이 없습니다: 점수 없음")
    return Said(f"{name} plays a {value} at ({x}, {y}); {scored[0]}.",
                f"{name}이(가) ({x}, {y})에 {value}을(를) 놓습니다. {scored[1]}.")


def flipped(name: str) -> Said:
    """A player flips the reference card; raises nothing."""
    return Said(f"{name} flips the reference card to play a second Gate this turn.",
                f"{name}이(가) 참조 카드를 뒤집어 이번 차례에 관문을 하나 더 놓습니다.")


def destroyed(x: int, y: int) -> Said:
    """A Gate turned to Ruins; raises nothing."""
    return Said(f"The Gate on ({x}, {y}) is destroyed: it is Ruins now.", f"({x}, {y})의 관문이 파괴되어 이제 폐허입니다.")


def points_changed(name: str, gains: bool, points: int) -> Said:
    """Points a Gate's text gave or took; raises nothing."""
    verb = ("gains", "얻습니다") if gains else ("loses", "잃습니다")
    return Said(f"{name} {verb[0]} {counted(points, 'point')}.", f"{name}이(가) {points}점을 {verb[1]}.")


def drew(name: str, cards: int, held: int) -> Said:
    """Cards a Gate's text made a player draw; raises nothing."""
    return Said(f"{name} draws {counted(cards, 'card')} ({held} in hand).", f"{name}이(가) 카드 {cards}장을 뽑습니다(손패 {held}장).")


def discarded(name: str, cards: int, held: int) -> Said:
    """Cards a Gate's text put under the deck; raises nothing."""
    return Said(f"{name} reveals and puts {counted(cards, 'card')} under the deck ({held} in hand).",
                f"{name}이(가) 카드 {cards}장을 공개하고 덱 아래에 놓습니다(손패 {held}장).")


def only_holds(name: str, held: int) -> Said:
    """More cards to discard than the hand holds; raises nothing."""
    return Said(f"{name} has only {counted(held, 'card')} in hand.", f"{name}의 손패는 {held}장뿐입니다.")


def draw_first(name: str, then: Pair) -> Pair:
    """How to put right a hand count that is too small, then do `then`; raises nothing."""
    return (f"If a Gate's text made {name} draw and it was not entered, enter Draw cards for {name} first, then {then[0]}.",
            f"관문 효과로 {name}이(가) 카드를 뽑았는데 입력하지 않았다면, 먼저 {name}의 '카드 뽑기'를 입력한 뒤 {then[1]}.")


def hand_empty(name: str) -> Said:
    """No card in the hand to enter, and how to put the count right; raises nothing."""
    fix = draw_first(name, ENTER_THE_HAND)
    return Said(f"The companion counts no cards in {name}'s hand. {fix[0]}",
                f"도우미가 센 {name}의 손패는 0장입니다. {fix[1]}")


def hand_short(name: str, held: int, count: int, then: Pair) -> Said:
    """More cards named than the hand holds, and how to put the count right; raises nothing."""
    fix = draw_first(name, then)
    return Said(f"The companion counts {counted(held, 'card')} in {name}'s hand, not {count}. {fix[0]}",
                f"도우미가 센 {name}의 손패는 {count}장이 아니라 {held}장입니다. {fix[1]}")


def shown_ko(values: tuple[int, ...]) -> str:
    """A Run or Set in Korean, as scoring.describe says it in English: '런 2–3–4', '세트 2–2–2', '5 한 장'; raises nothing."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return f"{ordered[0]} 한 장"
    return ("세트 " if is_set(values) else "런 ") + "–".join(map(str, ordered))


def revealed(name: str, values: tuple[int, ...], points: int) -> Said:
    """A player's Run or Set (or nothing) revealed and scored; raises nothing."""
    english = f"{name} reveals {describe(values)}: +{counted(points, 'point')}."
    if not values:
        return Said(english, f"{name}은(는) 아무것도 공개하지 않습니다: +{points}점.")
    particle = "을" if len(values) == 1 else "을(를)"  # '5 한 장을', '런 2–3을(를)'
    return Said(english, f"{name}이(가) {shown_ko(values)}{particle} 공개합니다: +{points}점.")


def proposal(name: str, values: tuple[int, ...], points: int) -> Said:
    """The best Run or Set in an entered hand, proposed; raises nothing."""
    return Said(f"{name}'s best: {describe(values)} for {counted(points, 'point')} (accept it or reveal another).",
                f"{name}의 최선: {shown_ko(values)}, {points}점 (제안대로 공개하거나 다른 것을 공개하세요).")
