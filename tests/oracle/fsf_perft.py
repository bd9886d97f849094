#!/usr/bin/env python3
"""Generate perft reference files tests/perft/<variant>.epd with Fairy-Stockfish.

  python3 tests/oracle/fsf_perft.py [--engine /usr/games/fairy-stockfish] [--seed 1] [--limit 3000000]

For each variant: the start position plus 12 positions reached by seeded random play (4..60 plies), each
with perft counts for depths 1.. up to the largest depth whose count stays under --limit (depth 2 always);
shuffle variants (fischerandom, caparandom) add seeded shuffled starts, each with random walks from it.
Also writes tests/perft/chess-cpw.epd (Chess Programming Wiki table) and checks its shallow counts against
Fairy-Stockfish. Needs the Debian package fairy-stockfish. Python 3 standard library only; speaks to the
engine through tests/peers/fairy_stockfish.py.
"""
import argparse, random, subprocess, sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / 'peers'))
from fairy_stockfish import Fsf  # noqa: E402  (the one Fairy-Stockfish driver)

VARIANTS = ['chess', 'shatranj', 'courier', 'capablanca', 'makruk',
            'nocastle', 'amazon', 'hoppelpoppel', 'newzealand', 'knightmate', 'almost', 'chigorin', 'gardner',
            'losalamos', 'gothic', 'embassy', 'janus', 'centaur', 'modern', 'chancellor',
            '3check', '5check', 'kingofthehill', 'racingkings', 'extinction', 'kinglet', 'threekings',
            'crazyhouse', 'loop', 'chessgi', 'capahouse', 'pocketknight', 'bughouse',
            'xiangqi', 'minixiangqi', 'manchu',
            'antichess', 'giveaway', 'suicide', 'losers', 'horde',
            'shogi', 'minishogi', 'judkins', 'gorogoro', 'euroshogi', 'dobutsu',
            'mini', 'kyotoshogi', 'micro', 'supply', 'placement',
            'fischerandom', 'caparandom',
            'janggi', 'janggitraditional', 'janggimodern', 'janggicasual',
            'asean', 'ai-wok', 'makpong', 'cambodian', 'karouk',
            'breakthrough', 'clobber', 'clobber10', 'jesonmor', 'codrus', 'shatar', 'shako',
            'seirawan', 'grand', 'shouse', 'koedem', 'sittuyin', 'fairy']
RANDOM_GAMES = 12
# Piece letters as defined in Fairy-Stockfish 11.1 src/variant.cpp (add_piece calls); `d` does not show names.
CHESS_LETTERS = 'p pawn, n knight, b bishop, r rook, q queen, k king'
SHOGI_LETTERS = ('p pawn (fW), l lance (fR), n knight (shogi knight ffN), s silver (FfW), g gold (WfF), b bishop, '
                 'h horse (BW, the promoted bishop), r rook, d dragon (RF, the promoted rook), k king; a promoted '
                 'piece is written +p, +l, +n, +s (each moves as a gold), +b, +r')
LETTERS = {
    'chess': 'p pawn, n knight, b bishop, r rook, q queen, k king',
    'shatranj': 'p pawn, n knight, b alfil (2,2)-leaper, r rook, q fers (ferz, 1 step diagonal), k king',
    'courier': 'p pawn, n knight, b bishop, r rook, e alfil (2,2)-leaper, f fers (ferz), m commoner (mann, '
               'non-royal king), w wazir, k king',
    'capablanca': 'p pawn, n knight, b bishop, r rook, q queen, a archbishop (B+N), c chancellor (R+N), k king',
    'makruk': 'p pawn, n knight, s khon (silver general: fF + fW), m met (fers), r rook, k king',
    'nocastle': 'p pawn, n knight, b bishop, r rook, q queen, k king',
    'amazon': 'p pawn, n knight, b bishop, r rook, a amazon (Q+N), k king',
    'hoppelpoppel': 'p pawn, n knibis (mNcB: moves as a knight, captures as a bishop), b biskni (mBcN), r rook, '
                    'q queen, k king',
    'newzealand': 'p pawn, n kniroo (mNcR: moves as a knight, captures as a rook), b bishop, r rookni (mRcN), '
                  'q queen, k king',
    'knightmate': 'p pawn, m commoner (mann, non-royal king), b bishop, r rook, q queen, k king moving as a knight',
    'almost': 'p pawn, n knight, b bishop, r rook, c chancellor (R+N), k king',
    'chigorin': 'p pawn, n knight, b bishop, r rook, q queen, c chancellor (R+N), k king',
    'gardner': 'p pawn, n knight, b bishop, r rook, q queen, k king',
    'losalamos': 'p pawn, n knight, r rook, q queen, k king',
    'gothic': 'p pawn, n knight, b bishop, r rook, q queen, a archbishop (B+N), c chancellor (R+N), k king',
    'embassy': 'p pawn, n knight, b bishop, r rook, q queen, a archbishop (B+N), c chancellor (R+N), k king',
    'janus': 'p pawn, n knight, b bishop, r rook, q queen, j janus (archbishop, B+N), k king',
    'centaur': 'p pawn, n knight, b bishop, r rook, q queen, c centaur (K+N), k king',
    'modern': 'p pawn, n knight, b bishop, r rook, q queen, m archbishop (B+N), k king',
    'chancellor': 'p pawn, n knight, b bishop, r rook, q queen, c chancellor (R+N), k king',
    'seirawan': 'p pawn, n knight, b bishop, r rook, q queen, h hawk (B+N), e elephant (R+N), k king',
    'shouse': 'p pawn, n knight, b bishop, r rook, q queen, h hawk (B+N), e elephant (R+N), k king',
    '3check': CHESS_LETTERS,
    '5check': CHESS_LETTERS,
    'kingofthehill': CHESS_LETTERS,
    'racingkings': CHESS_LETTERS,
    'extinction': 'p pawn, n knight, b bishop, r rook, q queen, k commoner (non-royal king)',
    'kinglet': 'p pawn, n knight, b bishop, r rook, q queen, k commoner (non-royal king)',
    'threekings': 'p pawn, n knight, b bishop, r rook, q queen, k commoner (non-royal king)',
    'shogi': SHOGI_LETTERS,
    'minishogi': SHOGI_LETTERS,
    'mini': SHOGI_LETTERS,
    'kyotoshogi': ('p pawn (fW), l lance (fR), n knight (shogi knight ffN), s silver (FfW), g gold (WfF), '
                   'b bishop, r rook, k king; the flipped faces are +p (rook), +s (bishop), +l and +n (gold)'),
    'micro': ('p pawn (fW), l lance (fR), n knight (shogi knight ffN), s silver (FfW), g gold (WfF), '
              'b bishop, r rook, k king; the flipped faces are +p (knight), +l (silver), +b and +r (gold)'),
    'supply': ('r rook (chariot), n horse (lame knight), b elephant (lame (2,2) leaper), a advisor (fers), '
               'k general (wazir), c cannon (mRcpR), p soldier'),
    'judkins': SHOGI_LETTERS,
    'gorogoro': SHOGI_LETTERS,
    'euroshogi': SHOGI_LETTERS.replace('n knight (shogi knight ffN)', 'n knight (ffNsW)'),
    'dobutsu': 'c chick (fW), h hen (gold WfF, the promoted chick, written +c), e elephant (F), g giraffe (W), '
               'l lion (king)',
    'crazyhouse': CHESS_LETTERS,
    'placement': CHESS_LETTERS,
    'loop': CHESS_LETTERS,
    'chessgi': CHESS_LETTERS,
    'capahouse': 'p pawn, n knight, b bishop, r rook, q queen, a archbishop (B+N), c chancellor (R+N), k king',
    'pocketknight': CHESS_LETTERS,
    'bughouse': CHESS_LETTERS,
    'sittuyin': 'p pawn (fmWfcF), n knight (horse), s khon (silver general: fF + fW, elephant), f met (fers, the '
                'general), r rook (chariot), k king',
    'koedem': 'p pawn, n knight, b bishop, r rook, q queen, k commoner (the king, not royal)',
    'xiangqi': 'r rook (chariot), n horse (lame knight), b elephant (lame (2,2) leaper), a advisor (fers), '
               'k general (wazir), c cannon (mRcpR), p soldier',
    'minixiangqi': 'r rook (chariot), n horse (lame knight), k general (wazir), c cannon (mRcpR), p soldier',
    'manchu': 'r rook (chariot), n horse (lame knight), b elephant (lame (2,2) leaper), a advisor (fers), '
              'k general (wazir), c cannon (mRcpR), p soldier, m banner (chariot + cannon + horse)',
    'antichess': 'p pawn, n knight, b bishop, r rook, q queen, k commoner (non-royal king)',
    'giveaway': 'p pawn, n knight, b bishop, r rook, q queen, k commoner (non-royal king)',
    'suicide': 'p pawn, n knight, b bishop, r rook, q queen, k commoner (non-royal king)',
    'losers': CHESS_LETTERS,
    'horde': CHESS_LETTERS,
    'fischerandom': CHESS_LETTERS,
    'caparandom': 'p pawn, n knight, b bishop, r rook, q queen, a archbishop (B+N), c chancellor (R+N), k king',
}
MAKRUK_LETTERS = 'p pawn, n knight, s khon (silver general: fF + fW), m met (fers), r rook, k king'
LETTERS.update({
    'asean': 'p pawn, n knight, b khon (silver general: fF + fW), q met (fers), r rook, k king',
    'ai-wok': 'p pawn, n knight, s khon (silver general: fF + fW), a ai-wok (rook + knight + fers), r rook, k king',
    'makpong': MAKRUK_LETTERS,
    'cambodian': MAKRUK_LETTERS,
    'karouk': MAKRUK_LETTERS,
    'breakthrough': 'p breakthrough pawn (fmWfF: steps straight or diagonally forward, takes diagonally forward)',
    'clobber': 'p clobber stone (cW: moves only by taking an orthogonal neighbour)',
    'clobber10': 'p clobber stone (cW: moves only by taking an orthogonal neighbour)',
    'jesonmor': 'n knight',
    'codrus': 'p pawn, n knight, b bishop, r rook, q queen, k commoner (non-royal king)',
    'shatar': 'p pawn, n knight, b bishop, r rook, j bers (rook + fers), k king',
    'shako': 'p pawn, n knight, b bishop, r rook, q queen, e elephant (fers + alfil), c cannon (mRcpR), k king',
    'grand': 'p pawn, n knight, b bishop, r rook, q queen, a archbishop (B+N), c chancellor (R+N), k king',
    'fairy': 'p pawn, n knight, b bishop, r rook, q queen, s silver (FfW), f fers, k king',
})
JANGGI_LETTERS = ('r chariot (rook), n horse (lame knight), b elephant (janggi elephant: W then two F outward), '
                  'a guard (wazir), k general (wazir), c janggi cannon, p soldier')
JANGGI_NOTES = ('ranks 1..10; general and guards confined to the palace d1-f3 / d8-f10; general, guards, chariot, '
                'cannon and (in the enemy palace, forward) soldier also move along the palace diagonals; the cannon '
                'hops one screen that is not a cannon and never takes a cannon; soldiers step sideways from the '
                'start; a side not in check may pass, written as its general\'s move to its own square (e2e2); '
                'two passes in a row end the game (no moves)')
BIKJANG_NOTES = ('; while the generals face each other on an open file the side to move must part them or pass, '
                 'and that pass ends the game (no moves)')
for _v in ('janggi', 'janggitraditional', 'janggimodern', 'janggicasual'):
    LETTERS[_v] = JANGGI_LETTERS
# Rules that show in the counts (probed on Fairy-Stockfish 11.1; UCI move strings as it prints them).
NOTES = {
    'fairy': 'chess (promotion q r b n, castling as the king move); the silver (FfW) and fers only in set-ups.',
    'chess': 'promotion suffix q r b n (e7e8q); castling written as the king move (e1g1).',
    'shatranj': 'no double step, no castling; promotion to fers only (a7a8q). Bare king: a side to move that has '
                '2+ pieces while the opponent has only its king has no moves (the game is over; perft 0), but the '
                'bared side itself still moves (one-move grace). Stalemate: no moves.',
    'courier': 'no double step, no castling; promotion to fers only (a7a8f). Bare king as in shatranj: a side to '
               'move that has 2+ pieces while the opponent has only its king has no moves (perft 0).',
    'capablanca': 'promotion suffix a c q r b n; castling written as the king move f1i1 / f1c1 (f8i8 / f8c8).',
    'makruk': 'no double step, no castling; white pawns promote on rank 6 (black on rank 3) to met only (a5a6m); '
              'promoted pawns are written as plain m (no "~"). While the makruk counting rule runs, Fairy-Stockfish '
              'writes counting limit and counting ply in the en-passant and halfmove fields (after a5a6m in '
              '4k3/8/8/P7/8/8/8/4K3 w: "4k3/8/M7/8/8/8/8/4K3 b - 128 6 1"); no position here has it running.',
    'nocastle': 'chess without castling (start FEN castling field "-"); double step and en passant as in chess.',
    'amazon': 'castling as in chess (e1g1); promotion suffix a r b n.',
    'hoppelpoppel': 'castling as in chess; promotion suffix q r b n (b = biskni, n = knibis).',
    'newzealand': 'castling with the rookni in the corner (e1g1); promotion suffix q r b n (r = rookni, n = kniroo).',
    'knightmate': 'the royal knight castles as a king (e1g1, e1c1), not out of or through check; promotion '
                  'suffix m q r b.',
    'almost': 'castling as in chess; promotion suffix c r b n.',
    'chigorin': 'castling as in chess; both sides promote to q c r b n.',
    'gardner': 'no double step, no en passant, no castling; promotion on rank 5 (a4a5q), suffix q r b n.',
    'losalamos': 'no double step, no en passant, no castling; promotion on rank 6 (a5a6q), suffix q r n.',
    'gothic': 'castling f1i1 / f1c1 as in capablanca; promotion suffix a c q r b n.',
    'embassy': 'castling three squares each way: e1h1 / e1b1 (e8h8 / e8b8); promotion suffix a c q r b n.',
    'janus': 'the king on e castles onto the b- or i-file, for both colours alike: e1b1 (rook a1c1) / e1i1 (rook '
             'j1h1), e8b8 / e8i8; promotion suffix j q r b n.',
    'centaur': 'castling f1i1 / f1c1; promotion suffix c q r b n.',
    'modern': 'ranks 1..9; castling e1g1 / e1c1; promotion on rank 9, suffix m q r b n.',
    'chancellor': 'ranks 1..9; castling e1g1 / e1c1; promotion on rank 9, suffix c q r b n.',
    '3check': 'checks each side may still give are written after the e.p. field ("2+3"); a side that has given its '
              'third check has won: the side to move then has no moves (perft 0).',
    '5check': 'as 3check with five checks ("5+5").',
    'kingofthehill': 'a king on d4, e4, d5 or e5 has won: the other side to move has no moves (perft 0).',
    'racingkings': 'no move may give check; a king on the 8th rank wins once the opponent has replied (the side to '
                   'move with its king there has no moves; both kings there with White to move: a draw, no moves).',
    'extinction': 'no check; the commoner castles even over attacked squares; a side without a piece of one of its '
                  'kinds has lost (no moves); promotion to k as well (a7a8k).',
    'kinglet': 'no check; a side without pawns has lost (no moves); promotion to k only.',
    'threekings': 'no check, no castling; a side with two kings or fewer has lost (no moves).',
    'seirawan': 'each side holds a hawk and an elephant ("[HEhe]"); one may enter on the square a never-moved '
                'first-rank piece leaves ("b1c3h"), castling onto the king\'s square ("e1g1h") or the rook\'s '
                '("h1e1h"); the rights field lists the gates by file after KQ ("KQABCDEFGH"); captures leave the '
                'game; pawns promote to h and e too.',
    'shouse': 'seirawan\'s gating ("b1c3h", "e1g1h", "h1e1h", gates by file in the rights field) with '
              'crazyhouse\'s hands: captures go to the capturer\'s hand (a promoted pawn "H~" as a pawn), and '
              'any piece in hand, hawk and elephant too, may be dropped ("H@e4") on an empty square, pawns on '
              'ranks 2..7 only.',
    'crazyhouse': 'captured pieces go to the capturer\'s hand (holdings "[...]" after the placement); drops "P@e4" '
                  'on empty squares, pawns on ranks 2..7 only; a promoted pawn ("Q~") returns to hand as a pawn.',
    'loop': 'crazyhouse, but a captured promoted piece returns to hand as what it is.',
    'chessgi': 'loop, and pawns may be dropped on the first rank too (ranks 1..7).',
    'capahouse': 'capablanca with crazyhouse drops (pawns on ranks 2..7).',
    'placement': 'pieces but pawns start in hand; while a side holds pieces it must drop one (if it can) on its '
                 'first rank, bishops on both colours (no drop that leaves a bishop in hand without a free square '
                 'of a colour its bishops lack); a king dropped on e1/e8 and rooks in that rank\'s corners get '
                 'castling rights ("KQk" in FEN); captures leave the game.',
    'pocketknight': 'chess, each side with a knight in hand at the start; captures leave the game.',
    'bughouse': 'one board of bughouse: captures leave the game (for the partner\'s board); the hand comes from the '
                'position; drops as in crazyhouse.',
    'sittuyin': 'set-up: while a side holds pieces it must drop one, on an empty square of its own ranks 1..3, '
                'rooks on rank 1 only ("R@a1"); captures leave the game; no double step, no castling; a pawn '
                'promotes to the general (f) only while its side has none, in place ("d5d5f") or by a fers step '
                'to an empty square ("d5c6f"), standing on a long diagonal in the enemy half (white a8-d5, e5-h8; '
                'black a1-d4, e4-h1) or anywhere when it is its side\'s last pawn; a promotion may not give check. '
                'The counting rule does not show in these positions.',
    'koedem': 'bughouse (captures leave the game, the hand comes from the position) with a king that is no '
              'royal: it may be taken (and castles over attacked squares); while a side holds a king it must drop '
              '("K@e4"; any piece it holds will do) rather than move; a side with no king on the '
              'board or in hand while the opponent owns two has lost (no moves).',
    'xiangqi': 'ranks 1..10 (moves such as b3b10); general and advisors confined to the palace d1-f3 / d8-f10, '
               'elephants to their own half; soldiers step sideways from rank 6 on (black: rank 5 down); '
               'generals may not face each other on an open file; no promotion; stalemate: no moves.',
    'minixiangqi': 'the general confined to c1-e3 / c5-e7; soldiers step forward or sideways from the start; '
                   'generals may not face each other on an open file.',
    'manchu': 'as xiangqi; White has one banner m (a1) for its chariots, horses and cannons.',
    'antichess': 'no check, no castling; a side that can capture must (only captures listed); a side without '
                 'pieces has won (no moves); promotion to k as well (a7a8k).',
    'giveaway': 'as antichess, and the commoner castles (e1g1, e1c1), even out of and over attacked squares.',
    'suicide': 'as antichess; stalemate goes to the side with fewer pieces (no moves either way).',
    'losers': 'chess with check and castling; a side that can capture legally must; a side left with only its '
              'king has won, whoever is to move (no moves).',
    'shogi': 'captures go to hand demoted; drops "P@e5"; a move starting or ending in the far 3 ranks may promote '
             '("h8c3+"); no pawn or lance left on the last rank, no knight on the last two (those moves must promote, '
             'those drops are not made); no pawn dropped on a file with an own unpromoted pawn; a pawn-drop mate is '
             'made (the mated side has won: no moves); a side without moves has lost.',
    'minishogi': 'as shogi on 5x5, promotion on the last rank.',
    'mini': 'the same game as minishogi (Fairy-Stockfish adds minishogi_variant() under both names).',
    'kyotoshogi': 'every move of a two-faced piece turns it over, anywhere: "e1e2+" to the promoted face, '
                  '"a1a2-" back (no move without it); captures go to hand as the plain face; drops either face '
                  'up, "P@c3" or "+P@c3", on any empty square (no file, mate or immobility rule).',
    'micro': 'as kyotoshogi on 4x5, but a piece turns over only when it captures (and then must): "c1b2+", '
             '"a1b2-"; moves without a capture keep the face.',
    'supply': 'xiangqi; captures leave the game (for the partner\'s board), the hand comes from the position; '
              'drops "R@e3" on an empty point of ranks 1..5 of the dropping side (advisors in the palace only); '
              'no drop may give check.',
    'judkins': 'as shogi on 6x6, promotion in the last two ranks.',
    'gorogoro': 'as shogi on 5x6, promotion in the last two ranks.',
    'euroshogi': 'as shogi on 8x8, promotion in the last three ranks compulsory.',
    'dobutsu': 'captures go to hand; drops anywhere (no file, mate or immobility rule); the chick promotes on the far '
               'rank (optional); a lion on the far rank has won (no moves).',
    'horde': 'White has no king; pawns on their first rank double step as well (a1a3, no e.p. square set), '
             'also after moving there from nowhere else; a side without pieces has lost (no moves).',
    'fischerandom': 'Chess960 castling, written as the king taking its rook (g1h1, b1a1) whether or not '
                    'UCI_Chess960 is set: the king ends on g or c, the rook beside it on f or d; rights '
                    'in Shredder-FEN (HAha); the start position is the orthodox one.',
    'caparandom': 'capablanca with Chess960 castling (king to i or c, rook to h or d), written as the king '
                  'taking its rook; rights in Shredder-FEN (JAja).',
    'asean': 'makruk\'s moves with chess letters; pawns promote on the last rank to r n b q (khon b, met q); '
             'no double step, no castling.',
    'ai-wok': 'as makruk, the ai-wok in the met\'s place; pawns promote on rank 6 to the ai-wok only (a5a6a).',
    'makpong': 'as makruk, but a king in check may only take the one piece giving check (no other king move).',
    'cambodian': 'as makruk; an unmoved king may leap d1b2 / d1f2 (not taking, not out of check), an unmoved met '
                 'e1e3 (over a piece, taking); the rights field names the unmoved king and met files ("DEde").',
    'karouk': 'as cambodian; the first check wins (checks field "1+1"): the side in check has no moves.',
    'breakthrough': 'no king; a pawn on the far rank has won: the side to move then has no moves; a side without '
                    'moves loses.',
    'clobber': 'no king; every move takes; a side without moves loses.',
    'clobber10': 'clobber on 10x10.',
    'jesonmor': 'no king; a knight of the side to move standing on e5 (after the opponent\'s reply) has won: '
                'no moves; a side without moves loses.',
    'codrus': 'giveaway (captures forced, the commoner king castles even through attacks); a side that has lost '
              'its king has won (no moves); promotion to q r b n.',
    'shatar': 'no double step, no castling; promotion to the bers only (a7a8j). A side with only its king left '
              '(either side, also the side to move) ends the game drawn: no moves (positions with a bare king are '
              'not listed: acedrex counts their moves and scores the draw in its game end).',
    'shako': 'ranks 1..10; pawns on rank 3 double-step, e.p.; promotion on rank 10, suffix q r b n c e; the king '
             'castles on rank 2 with the outermost rook: f2h2 (rook i2g2), f2d2 (rook b2e2), rights KQkq.',
    'grand': 'ranks 1..10; pawns on rank 3 double-step, e.p.; no castling; a pawn may promote on ranks 8 and 9 '
             'and must on 10, only to a kind its side has fewer of on the board than its promotionLimit '
             '(q a c 1, r b n 2; so to a lost piece): with none left to choose it stays on rank 8 or 9 and '
             'does not move to 10; suffix q r b n a c.',
    'janggi': JANGGI_NOTES + BIKJANG_NOTES + '.',
    'janggitraditional': JANGGI_NOTES + BIKJANG_NOTES + '.',
    'janggimodern': JANGGI_NOTES + '; no bikjang rule: generals facing each other change nothing.',
    'janggicasual': JANGGI_NOTES + '; no bikjang rule: generals facing each other change nothing.',
}

# Hand-made castling positions for the variants whose king castles other than chess's e1g1/e1c1 (or is not
# a king): partners on both wings, squares the king crosses under attack, Black to move as well.
CASTLING = {
    'knightmate': ['4k3/8/8/8/8/8/6b1/R3K2R w KQ - 0 1', '4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1',
                   'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1'],
    'newzealand': ['r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', 'r3k2r/8/8/8/8/5b2/8/R3K2R w KQkq - 0 1'],
    'embassy': ['r3k4r/10/10/10/10/10/10/R3K4R b KQkq - 0 1', 'r3k4r/10/10/10/10/10/3b6/R3K4R w KQkq - 0 1'],
    # Janus: both colours castle onto b and i (not mirrored), crossed squares under attack, blocked wings.
    'janus': ['r3k4r/10/10/10/10/10/10/R3K4R w KQkq - 0 1', 'r3k4r/10/10/10/10/10/10/R3K4R b KQkq - 0 1',
              'r3k4r/10/10/10/10/10/2b7/R3K4R w KQkq - 0 1', 'r3k4r/10/10/10/10/2R7/10/R3K4R b KQkq - 0 1',
              'r3k4r/10/10/10/10/10/10/R3K4R w Kq - 0 1', 'rj2k3jr/10/10/10/10/10/10/R3K4R b KQkq - 0 1',
              'r3k4r/10/10/10/10/10/10/R3K4R b Qk - 0 1',
              # A king with rights off its start file still lands on b and i (d1b1, d1i1).
              'r3k4r/10/10/10/10/10/10/R2K5R w KQkq - 0 1'],
    'gothic': ['r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1', 'r4k3r/10/4B5/10/10/10/10/R4K3R b KQkq - 0 1'],
    'centaur': ['r4k3r/10/10/10/10/10/5q4/R4K3R w KQkq - 0 1', 'r4k3r/10/10/10/10/10/10/R4K3R b KQkq - 0 1'],
    'modern': ['r3k3r/9/9/9/9/9/9/9/R3K3R b KQkq - 0 1', 'r3k3r/9/9/9/9/9/9/4b4/R3K3R w KQkq - 0 1'],
    'chancellor': ['r3k3r/9/9/9/9/9/9/9/R3K3R w KQkq - 0 1', 'r3k3r/9/9/9/9/9/6c2/9/R3K3R w KQkq - 0 1'],
    # The commoner is no royal: it castles out of and through attacked squares.
    'extinction': ['rnbqk2r/pppp4/8/8/8/8/PPP1r3/RNBQK2R w KQkq - 0 1',
                   'rnbqk2r/pppp4/8/8/8/8/PPP2r2/RNBQK2R w KQkq - 0 1',
                   'r3kbnr/pppq4/8/8/8/2B5/PPP5/RNBQKBNR b KQkq - 0 1'],
    'giveaway': ['r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1', 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1',
                 'r3k2r/8/8/8/8/2B5/8/R3K2R b KQkq - 0 1'],
    'losers': ['r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', 'r3k2r/8/8/8/8/5b2/8/R3K2R w KQkq - 0 1',
               # Forced captures while in check, a bared side, a capture that would leave the king attacked.
               '4k3/8/8/8/8/8/3r4/4K2R w K - 0 1', '4k2n/8/8/8/8/8/8/4K2R w K - 0 1',
               '4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1'],
    # First-rank double steps beside enemy pawns (no e.p. square), pawns moved up to their second rank.
    'horde': ['4k3/8/8/8/8/1p6/8/P1P5 w - - 0 1', 'r3k2r/8/8/8/8/1p4p1/P7/PP3PPP w kq - 0 1',
              'rnbqkbnr/pppppppp/8/8/8/8/1p6/PPP5 b kq - 0 1'],
    # Chess960: the king stays (g1, i1) or moves away from its rook, king and rook side by side, the
    # rook's square shielding the king's landing square, attacked squares on the way, Black to move.
    'fischerandom': ['1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1', 'rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1',
                     'r2kr3/8/8/8/8/8/8/R2KR3 w EAea - 0 1', 'k7/8/8/8/8/8/8/qR1K3R w HB - 0 1',
                     'rk5r/8/8/8/8/8/4q3/RK5R w HAha - 0 1', '1r4kr/8/8/8/8/8/8/1R4KR b HBhb - 0 1'],
    'caparandom': ['rk7r/10/10/10/10/10/10/RK7R w JAja - 0 1', '1r6kr/10/10/10/10/10/10/1R6KR w JBjb - 0 1',
                   'rk7r/10/10/10/10/10/5q4/RK7R w JAja - 0 1', 'r3kr4/10/10/10/10/10/10/R3KR4 b FAfa - 0 1'],
    # Shako: castling on the second rank inside the elephants, through and out of attacked squares, one
    # rook moved, a rook in front of an elephant that is not the outermost.
    'shako': ['4k5/10/10/10/10/10/10/10/ER3K2RE/10 w KQ - 0 1', '4k5/10/10/10/10/10/10/4r5/ER3K2RE/10 w KQ - 0 1',
              '4k5/10/10/10/10/10/10/2r7/ER3K2RE/10 w KQ - 0 1', 'c8c/er3k2re/10/10/10/10/10/10/ER3K2RE/C8C b KQkq - 0 1',
              '4k5/10/10/10/10/10/10/10/ER3K2RE/10 w K - 0 1', '4k5/10/10/10/10/10/10/10/RR3K3R/10 w KQ - 0 1',
              '4k5/10/10/10/10/10/5q4/10/ER3K2RE/10 w KQ - 0 1'],
    # Stalemates by piece count, a promotion to king forced by a capture.
    'suicide': ['8/8/8/8/8/p7/P7/8 w - - 0 1', '8/8/8/8/8/p7/P6P/8 b - - 0 1', '1n6/P7/8/8/8/8/8/7k w - - 0 1'],
}
# Hand-made positions for rules the random walks seldom reach (the flying general, a piece pinned between
# the generals, the elephant's river and eye, the soldier across the river, the horse's leg, a stalemate;
# a promoted piece taken into hand; holdings that do not come from captures).
RULES = {
    # Nifu, a pawn-drop mate (Fairy-Stockfish makes it; the mated side has won), drops and moves left
    # immobile, a promoted piece taken into hand as what it was, a promotion on leaving the zone.
    'shogi': ['4k4/9/9/9/9/9/4P4/9/4K4[P] w - - 0 1', 'kn7/9/1G7/9/9/9/9/9/8K[P] w - - 0 1',
              '4k4/P8/9/9/9/9/9/9/4K4[NLP] w - - 0 1', '4k4/9/9/9/9/9/4+p4/4G4/4K4[] w - - 0 1',
              '4k4/9/2S6/9/9/9/9/9/4K4[] w - - 0 1', '4k4/9/9/9/9/9/9/n8/4K4[l] b - - 0 1'],
    'euroshogi': ['3k4/8/2N5/8/8/8/8/3K4[] w - - 0 1', '3k4/P7/8/8/8/8/8/3K4[n] w - - 0 1'],
    'dobutsu': ['2l/L2/3/3[] w - - 0 1', '2l/3/1C1/L2[] w - - 0 1', '3/l2/3/2L[Cc] b - - 0 1'],
    # Gating: castling that gates on either square; a capture on a gate square. (Not here: a
    # first-rank piece pinned along its rank, which Fairy-Stockfish 11.1 does not let move even
    # when the gated piece blocks the pin; Fairy-Max and the rules of chess do, and so does
    # acedrex: tests/fairymax_games.rs.)
    # The third: a check answered by taking the checker with a first-rank bishop that never moved,
    # both hands empty (Fairy-Max 5.0b refuses c1d2 here and lists only the king, hawk and elephant).
    'seirawan': ['r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHeh] w KQAEHkqaeh - 0 1',
                 'rnbqkbnr/pppppppp/2N5/8/8/8/PPPPPPPP/R1BQKBNR[EHeh] w KQACDEFGHkqabcdefgh - 0 1',
                 'rnbh1b2/1e1kp2r/2pp1n2/p2N2p1/PP2Pp2/5B1N/2Pq1PPP/RHB1KER1[] w Q - 0 16'],
    # Gating and drops together: castling that gates while captured pieces wait in hand, a gate
    # square that a drop could fill, a captured hawk gated back in, a promoted hawk (`H~`) taken;
    # any kind in hand but the pawn gates (a pawn may not be dropped on the first rank).
    'shouse': ['r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[EHNPeh] w KQAEHkqaeh - 0 1',
               'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[EHPeh] b KQABCDFGkqabcdfgh - 0 1',
               'r1bqkbnr/pppppppp/2n5/8/8/8/PPPPPPPP/RNBQKBNR[EHHeh] w KQABCDEFGHkqbcdefgh - 0 1',
               '2r1k3/8/8/2H~5/8/8/8/4K2R[Ee] b K - 0 1',
               '4k3/1P6/8/8/8/8/5p2/4K1R1[Nhe] w - - 0 1',
               # A first-rank piece pinned along its rank: Fairy-Stockfish lets the gated piece take
               # over no pin (acedrex's `gating ... pins-hold`); a pin on a diagonal, and a drop that pins.
               'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKBeR[EHPh] w KQABCDEFHkqabcdefgh - 1 2',
               '4k3/8/8/b7/8/8/8/4KN1R[Hq] w KEFH - 0 1'],
    # A promoted queen (`Q~`) to be taken: crazyhouse hands it back as a pawn, loop as a queen.
    'crazyhouse': ['2r1k3/8/8/2Q~5/8/8/8/4K3[] b - - 0 1', '4k3/1P6/8/8/8/8/5p2/4K1R1[Nq] w - - 0 1'],
    'loop': ['2r1k3/8/8/2Q~5/8/8/8/4K3[] b - - 0 1', '4k3/1P6/8/8/8/8/5p2/4K1R1[Nq] w - - 0 1'],
    'capahouse': ['2r1k5/10/10/2Q~7/10/10/10/5K4[] b - - 0 1'],
    # Sittuyin: promotion on the diagonals with several pawns, anywhere with one, not with a general,
    # not giving check (nor a discovered one), Black's squares, a pawn on the last rank, the set-up's
    # rook drops.
    'sittuyin': ['4k3/8/8/3P4/8/8/P7/4K3 w - - 0 1', '4k3/8/8/8/8/8/P7/4K3 w - - 0 1',
                 '4k3/8/8/3P4/8/8/P7/F3K3 w - - 0 1', '8/8/4k3/3P4/8/8/P7/4K3 w - - 0 1',
                 '4k3/p7/8/8/4p3/8/8/4K3 b - - 0 1', '4k2P/8/8/8/8/8/P7/4K3 w - - 0 1',
                 '4k3/8/8/4P3/8/8/P7/4RK2 w - - 0 1',
                 '8/8/4pppp/pppp4/4PPPP/PPPP4/8/4K3[RRrr] w - - 0 1',
                 '8/8/4pppp/pppp4/4PPPP/PPPP4/8/R3K2R[krrn] b - - 0 1'],
    # Koedem: a king in hand dropped first (other pieces in hand wait), a side without its king, the
    # king taken while the taker holds the other (the game ends), and while it does not (play goes on),
    # castling through attacked squares, a side that has lost both kings.
    'koedem': ['4k3/8/8/8/8/8/8/4K3[KQRq] w - - 0 1', '4k3/8/8/8/8/8/PPP5/8[KQ] w - - 0 1',
               '4k3/8/8/8/8/8/3q4/4K3[] b - - 0 1', '4k3/8/8/8/8/8/3q4/4K3[k] b - - 0 1',
               'r3k2r/8/8/8/8/8/5q2/R3K2R w KQkq - 0 1', '4k3/8/8/8/8/8/PPP5/8[k] w - - 0 1',
               'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR[Kk] b kq - 0 1'],
    # Bughouse hands come from the partner's board, not from captures: positions with holdings.
    'bughouse': ['r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QNPbp] w KQkq - 2 3',
                 'r3k2r/ppp2ppp/8/3pp3/8/8/PPPPPPPP/R3K2R[RBNPPqr] b KQkq - 0 8',
                 '4k3/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 40'],
    # Placement: the last bishop square of a colour, rights from a rook dropped beside a king at home,
    # castling once placed, a side with an empty hand while the other still drops.
    'placement': ['8/pppppppp/8/8/8/8/PPPPPPPP/2KRNRN1[QBBkqrrbbnn] w - - 0 1',
                  '8/pppppppp/8/8/8/8/PPPPPPPP/1QKRNRNB[Bkqrrbbnn] w - - 0 1',
                  '4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3[RRrr] w - - 0 1',
                  'r3k3/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[r] b KQq - 0 1',
                  'rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[r] w KQq - 0 1'],
    # A capture of a flipped piece (back to hand plain), drops either face up, pieces that flip.
    'kyotoshogi': ['+l1k2/5/2p2/2S2/2K2[NPl] w - - 0 1', '2k2/5/2+s2/1P3/2K2[Ls] w - - 0 1',
                   '2k2/1+p3/5/3+N1/2K2[SPn] b - - 0 1'],
    'micro': ['1k2/4/1p2/1+R2/K3[Ll] w - - 0 1', '1k2/1+b2/1P2/4/2K1[PRb] w - - 0 1',
              'k3/4/1+L2/2p1/3K[Bp] b - - 0 1'],
    # Holdings from the partner's board: drops on the own half only, advisors in the palace, no
    # drop that gives check (the rook on the open e-file, the cannon behind a screen).
    'supply': ['rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR[RNBACPrnbacp] w - - 0 1',
               '4k4/9/9/9/9/9/9/9/9/3K5[RNC] w - - 0 1', '3k5/9/9/9/9/9/4P4/9/9/4K4[ABCR] w - - 0 1',
               '4k4/4a4/9/9/9/9/9/9/9/3K5[rcab] b - - 0 1'],
    'xiangqi': ['3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1', '4k4/4a4/9/9/9/9/9/9/4R4/4K4 w - - 0 1',
                '3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1', '3k5/9/9/9/9/2B6/3P5/9/9/4K4 w - - 0 1',
                '3k5/9/9/9/4P4/9/9/9/9/4K4 w - - 0 1', '3k5/9/9/9/9/9/9/4P4/4N4/4K4 w - - 0 1',
                '4k4/9/9/3r5/9/9/9/3C5/9/3K5 w - - 0 1', '3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1',
                '4k4/9/9/4R4/9/9/9/9/5R3/3K5 b - - 0 1', '4k4/9/9/R8/9/9/9/9/5R3/3K5 w - - 0 1',
                '3k5/4P4/9/9/9/9/9/9/9/5K3 b - - 0 1', '4k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1'],
}
# Janggi: generals facing (bikjang) and not, a pass while in check, the cannon along a palace diagonal, over
# and onto cannons, the chariot along a diagonal, soldiers in the enemy palace, the elephant and its blocks.
JANGGI_RULES = ['4k4/9/9/9/9/9/P8/9/4K4/9 w - - 0 1', '3k5/9/9/9/9/9/P8/9/4K4/9 w - - 0 1',
                '4k4/9/9/9/9/4r4/9/9/4K4/9 w - - 0 1', '4k4/4a4/9/9/9/9/9/9/9/4K4 b - - 0 1',
                '3k5/9/9/9/9/9/9/5n3/4A4/3CK4 w - - 0 1', '3k5/9/9/9/9/9/9/5n3/4c4/3C1K3 w - - 0 1',
                '3k5/9/9/9/9/4c4/9/9/4P4/4CK3 w - - 0 1', '5k3/9/9/9/9/9/9/5r3/9/3RK4 w - - 0 1',
                '3k5/9/3P5/9/9/9/9/9/9/5K3 w - - 0 1', '3k5/9/9/9/9/9/9/5p3/9/3K5 b - - 0 1',
                '3k5/9/9/9/9/9/9/9/9/2B1K4 w - - 0 1', '3k5/9/9/9/9/9/9/3p5/2p6/2B1K4 w - - 0 1',
                '4k4/9/3c5/9/9/9/9/5C3/4C4/3K5 b - - 0 1']
for _v in ('janggi', 'janggitraditional', 'janggimodern', 'janggicasual'):
    RULES[_v] = JANGGI_RULES
# The makruk family: leaps out of check, onto a piece, over attacked squares, rights lost one by one; the
# makpong king in check (single and double check, a checker protected); promotions; the first check.
CAMBODIAN_RULES = ['8/8/8/4k3/8/8/8/3KM3 w DE - 0 1', '8/8/8/4k3/8/4n3/8/3KM3 w DE - 0 1',
                   '8/8/8/4k3/8/8/1s6/3KM3 w DE - 0 1', '2r5/8/8/4k3/8/8/8/3KM3 w DE - 0 1',
                   '8/8/8/4k3/8/4r3/8/3KM3 w DE - 0 1', '8/8/8/4k3/8/8/8/3KM3 w E - 0 1',
                   '8/8/8/4k3/8/8/8/3KM3 w D - 0 1', '3mk3/8/8/8/8/8/8/3KM3 b DEde - 0 1',
                   '3mk3/8/8/8/8/8/8/3K2M1 w de - 0 1']
RULES.update({
    # fairy is chess in which a silver and a fers may stand (set-ups only: pawns promote to QRBN).
    'fairy': ['r3k2r/ppp1sppp/2f5/3p4/3P4/2F5/PPP1SPPP/R3K2R w KQkq - 0 1',
              '4k3/1P3s2/8/3fF3/8/8/2S5/4K3 w - - 0 1',
              'rnbqkbnr/pppppppp/8/8/8/5s2/PPPPPPPP/RNBQKBNR w KQkq - 0 1'],
    'cambodian': CAMBODIAN_RULES,
    'karouk': [f.replace(' - 0 1', ' - 1+1 0 1') for f in CAMBODIAN_RULES] + ['4k3/8/8/8/8/8/8/R3K3 w - - 1+1 0 1'],
    'makpong': ['8/8/8/4k3/8/8/4r3/4K3 w - - 0 1', '8/8/8/4k3/8/8/4r3/3RK3 w - - 0 1',
                '8/8/8/4k3/8/5n2/4r3/4K3 w - - 0 1', '8/8/8/4k3/8/4r3/8/3RK3 w - - 0 1',
                '8/8/8/4k3/8/8/5n2/4K3 w - - 0 1', '4k3/8/8/8/8/8/3p4/4K3 w - - 0 1'],
    'shatar': ['4k3/P7/8/8/8/8/r7/4K3 w - - 0 1', '4k3/8/8/8/8/8/r6n/J3K3 b - - 0 1'],
    # Grand: promotion on rank 10 with every kind lost (six choices, no plain move), with none lost (the
    # pawn cannot go on, not even by taking), on entering the zone (plain only, or the lost queen and rook
    # as well), a second pawn after the first took the only lost kind back, Black's mirror, e.p.
    'grand': ['4k5/P9/10/10/10/10/10/10/10/4K5 w - - 0 1',
              '1r2k5/P9/10/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1',
              '4k5/10/P9/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1',
              '4k5/10/10/P9/10/10/10/10/1NB1KCABN1/R9 w - - 0 1',
              'r3k5/PP8/10/10/10/10/10/10/1NB1KCABN1/R8R w - - 0 1',
              '1nbqkcabn1/r8r/10/10/10/10/10/10/p9/1R2K5 b - - 0 1',
              '4k5/10/10/10/10/1p8/10/P9/10/4K5 w - - 0 1'],
    'asean': ['4k3/P7/8/8/8/8/8/4K3 w - - 0 1', '4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1'],
    'ai-wok': ['4k3/8/8/P7/8/8/8/4K3 w - - 0 1', '4k3/8/8/8/3A4/8/8/4K3 b - - 0 1'],
    'breakthrough': ['8/P7/8/8/8/8/8/7p w - - 0 1', 'P7/8/8/8/8/8/8/7p b - - 0 1', '8/8/8/8/8/8/8/p6P w - - 0 1',
                     '8/8/8/8/2p5/1pPp4/8/8 w - - 0 1', '8/8/8/8/8/8/8/P7 b - - 0 1'],
    'clobber': ['5/5/5/2P2/2p2/5 w - - 0 1', '5/5/5/2P2/5/2p2 w - - 0 1'],
    'jesonmor': ['n8/9/9/9/4N4/9/9/9/8N b - - 0 1', 'n8/9/9/9/4N4/9/9/9/8N w - - 0 1',
                 'n8/9/9/9/4n4/9/9/9/8N w - - 0 1', 'n8/9/9/9/4n4/9/9/9/8N b - - 0 1',
                 '9/9/9/9/9/9/9/2n6/N8 w - - 0 1', '9/9/3n5/9/9/9/9/9/N8 w - - 0 1'],
    'codrus': ['4k3/3P4/8/8/8/8/8/4K3 w - - 0 1', '8/8/8/8/8/8/8/q3K3 w - - 0 1', '4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1',
               '8/8/8/8/8/8/3q4/R3K2R w KQ - 0 1'],
})
CPW = [  # Chess Programming Wiki, "Perft Results"
    ('start', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
     [20, 400, 8902, 197281, 4865609, 119060324]),
    ('kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
     [48, 2039, 97862, 4085603, 193690690]),
    ('pos3-endgame-ep-pins', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
     [14, 191, 2812, 43238, 674624, 11030083]),
    ('pos4-promotions-castling', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
     [6, 264, 9467, 422333, 15833292]),
    ('pos4-mirrored', 'r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1',
     [6, 264, 9467, 422333, 15833292]),
    ('pos5-promotion-check', 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8',
     [44, 1486, 62379, 2103487, 89941194]),
    ('pos6-middlegame', 'r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10',
     [46, 2079, 89890, 3894594, 164075551]),
]


# Shuffle variants: how many random starts, each followed by as many random walks from it. The back
# ranks are drawn here (not by acedrex) under the variant's rules: bishops on opposite colours, the
# king between the rooks, and for caparandom queen and archbishop on opposite colours too.
SHUFFLED = {'fischerandom': ('RNBQKBNR', [], 4), 'caparandom': ('RNABQKBCNR', ['QA'], 4)}


# Variants whose hands come from the partner's board: their walks from the start never fill a hand,
# so a few more walks start from full holdings.
HAND_STARTS = {
    'koedem': 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[KQRBNPkqrbnp] w KQkq - 0 1',
    'supply': 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR[RNBACPrnbacp] w - - 0 1',
}
HAND_WALKS = 3


def shuffled_start(rng, pieces, colour_pairs):
    while True:
        rank = list(pieces)
        rng.shuffle(rank)
        s = ''.join(rank)
        bishops = [i for i, c in enumerate(s) if c == 'B']
        pairs_ok = all((s.index(a) - s.index(b)) % 2 == 1 for a, b in colour_pairs)
        if (bishops[0] - bishops[1]) % 2 == 1 and pairs_ok and s.index('R') < s.index('K') < s.rindex('R'):
            n = len(s)
            return f'{s.lower()}/{"p" * n}/' + '/'.join([str(n)] * 4) + f'/{"P" * n}/{s} w KQkq - 0 1'


def startpos(moves, base='position startpos'):
    return base + (' moves ' + ' '.join(moves) if moves else '')


def random_game(fsf, rng, base='position startpos'):
    """Moves of a random game of 4..60 plies whose final position still has legal moves."""
    while True:
        moves = []
        for _ in range(rng.randint(4, 60)):
            legal = sorted(fsf.perft(startpos(moves, base), 1)[1])
            if not legal:
                break
            moves.append(rng.choice(legal))
        else:
            if fsf.perft(startpos(moves, base), 1)[0]:
                return moves


def counts(fsf, fen, limit):
    """Perft counts for depths 1.. while under limit (depths 1 and 2 always)."""
    pos, res = f'position fen {fen}', []
    while True:
        d = len(res) + 1
        if d > 2 and (res[-1] == 0 or res[-1] * res[-1] / max(res[-2], 1) > 4 * limit):
            return res                      # the next depth would clearly exceed the limit: do not run it
        n = fsf.perft(pos, d)[0]
        if d > 2 and n >= limit:
            return res
        res.append(n)


def epd_line(fen, res):
    return fen + ''.join(f' ;D{d} {n}' for d, n in enumerate(res, 1))


def debian_version(pkg):
    r = subprocess.run(['dpkg-query', '-W', '-f', '${Version}', pkg], capture_output=True, text=True)
    return r.stdout.strip() or 'unknown'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--engine', default='/usr/games/fairy-stockfish')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--limit', type=int, default=3_000_000)
    ap.add_argument('--out', default=str(Path(__file__).resolve().parents[1] / 'perft'))
    ap.add_argument('--variants', default=','.join(VARIANTS))
    a = ap.parse_args()
    out = Path(a.out); out.mkdir(parents=True, exist_ok=True)
    fsf = Fsf(a.engine)
    source = f'{fsf.name} (its UCI id name), Debian package fairy-stockfish {debian_version("fairy-stockfish")}, `go perft N`'

    for v in a.variants.split(','):
        fsf.variant(v)
        rng = random.Random(f'{a.seed}:{v}')
        start = fsf.fen(startpos([]))
        base = 'position startpos'
        cases = [(f'{v}-start', [], base)] + [(f'{v}-random-{k}', random_game(fsf, rng), base)
                                               for k in range(1, RANDOM_GAMES + 1)]
        if v in SHUFFLED:
            pieces, pairs, n = SHUFFLED[v]
            for k in range(1, n + 1):
                b = f'position fen {shuffled_start(rng, pieces, pairs)}'
                cases += [(f'{v}-shuffled-{k}', [], b)] + [(f'{v}-shuffled-{k}-random-{j}', random_game(fsf, rng, b), b)
                                                          for j in range(1, n)]
        if v in HAND_STARTS:
            b = f'position fen {HAND_STARTS[v]}'
            cases += [(f'{v}-hands-random-{k}', random_game(fsf, rng, b), b) for k in range(1, HAND_WALKS + 1)]
        extra = CASTLING.get(v, [])
        rules = RULES.get(v, [])
        lines = [f'# Perft reference counts for {v}: {source},',
                 f'# generated by tests/oracle/fsf_perft.py (seed {a.seed}; node limit {a.limit}).',
                 f'# Positions: the start position and {RANDOM_GAMES} positions reached by seeded random play '
                 '(4..60 plies, uniform among the moves listed by `go perft 1`)'
                 + (f', then {len(extra)} hand-made castling positions' if extra else '')
                 + (f', then {len(rules)} hand-made rule positions' if rules else '') + '.',
                 f'# Fairy-Stockfish start FEN (UCI_Variant {v}, `d`): {start}',
                 f'# Piece letters (Fairy-Stockfish variant.cpp; upper case = White): {LETTERS[v]}',
                 f'# Rules visible in the counts: {NOTES[v]}',
                 '# FENs are as Fairy-Stockfish prints them with `d` (line "Fen:"): an empty run is one number, also',
                 '# above 9 on wide boards (capablanca "10", courier "1p10", "12"); the en-passant field is set only',
                 '# when an enemy pawn could capture there; perft was run from `position fen <fen>`.',
                 '# Format: "# id <name> [moves <uci moves from the start position>]" then "<fen> ;D1 n ;D2 n ...".']
        if v in HAND_STARTS:
            lines += [f'# Then {HAND_WALKS} random walks from full holdings ({HAND_STARTS[v]}; `moves` from there).']
        if v in SHUFFLED:
            lines += [f'# Then {SHUFFLED[v][2]} shuffled starts drawn by the script (seeded), each followed by '
                      f'{SHUFFLED[v][2] - 1} random walks from it (`moves` from that start).']
        for name, moves, b in cases:
            fen = fsf.fen(startpos(moves, b))
            assert fsf.perft(f'position fen {fen}', 1)[1].keys() == fsf.perft(startpos(moves, b), 1)[1].keys(), name
            lines += [f'# id {name}' + (' moves ' + ' '.join(moves) if moves else ''), epd_line(fen, counts(fsf, fen, a.limit))]
            print(lines[-1], file=sys.stderr)
        for k, given in enumerate(extra, 1):
            fen = fsf.fen(f'position fen {given}')
            lines += [f'# id {v}-castling-{k}', epd_line(fen, counts(fsf, fen, a.limit))]
            print(lines[-1], file=sys.stderr)
        for k, given in enumerate(rules, 1):
            fen = fsf.fen(f'position fen {given}')
            lines += [f'# id {v}-rule-{k}', epd_line(fen, counts(fsf, fen, a.limit))]
            print(lines[-1], file=sys.stderr)
        (out / f'{v}.epd').write_text('\n'.join(lines) + '\n')

    if 'chess' in a.variants.split(','):
        fsf.variant('chess')
        lines = ['# Chess perft reference positions: Chess Programming Wiki, "Perft Results"',
                 '# (https://www.chessprogramming.org/Perft_Results). Deep counts are kept; test drivers apply a node limit.',
                 f'# Counts up to {a.limit} nodes were re-checked with {source},',
                 '# by tests/oracle/fsf_perft.py.',
                 '# Format: "# id <name>" then "<fen> ;D1 n ;D2 n ...".']
        for name, fen, res in CPW:
            for d, n in enumerate(res, 1):
                if n < a.limit:
                    got = fsf.perft(f'position fen {fen}', d)[0]
                    assert got == n, f'{name} depth {d}: Fairy-Stockfish {got}, CPW {n}'
            lines += [f'# id {name}', epd_line(fen, res)]
        (out / 'chess-cpw.epd').write_text('\n'.join(lines) + '\n')
    fsf.close()


if __name__ == '__main__':
    main()
