"""python-chess's WDL and DTZ for each FEN on stdin, one "wdl dtz" line each ("-" where
chess.syzygy raises). Run with PYTHONPATH at python-chess's source tree; argument: the
table folder."""
import sys

import chess
import chess.syzygy

with chess.syzygy.open_tablebase(sys.argv[1]) as tables:
    out = []
    for line in sys.stdin:
        fen = line.strip()
        if not fen:
            continue
        board = chess.Board(fen)
        values = []
        for probe in (tables.probe_wdl, tables.probe_dtz):
            try:
                values.append(str(probe(board)))
            except KeyError:
                values.append("-")
        out.append(" ".join(values))
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))
