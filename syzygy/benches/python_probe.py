"""python-chess's probe speed on the positions of the `probe` bench: the 200 positions of
python-chess's endgame.epd, one thread, tables opened by a first pass. Prints probes per
second for WDL and DTZ (the best of five passes).

PYTHONPATH=~/.cache/tempo/syzygy/chess-1.11.2 python3 syzygy/benches/python_probe.py \
    ~/.cache/tempo/syzygy/chess-1.11.2
"""
import sys
import time

import chess
import chess.syzygy

tree = sys.argv[1]
with open(f"{tree}/data/endgame.epd") as f:
    boards = [chess.Board(" ".join(line.split(" ")[:4])) for line in f if line.strip()]

with chess.syzygy.open_tablebase(f"{tree}/data/syzygy/regular") as tables:
    for board in boards:
        tables.probe_dtz(board)
    for name, probe in (("probe_wdl", tables.probe_wdl), ("probe_dtz", tables.probe_dtz)):
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            for board in boards:
                probe(board)
            best = min(best, time.perf_counter() - start)
        print(f"{name}: {len(boards)} positions in {best * 1e3:.2f} ms, {len(boards) / best:,.0f} probes/s")
