//! Static proofs that a side can never checkmate: arguments over the position as it stands,
//! each valid for every series of legal moves from it. A function here answers `true` only
//! with a proof (argued beside it); `false` means "not shown", never "it can mate".

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, queen_attacks, rook_attacks};
use crate::game::can_ever_checkmate;
use crate::{Bitboard, Color, Position, Rank, Role, Square};

/// `true` if `mater`'s material can never checkmate, whatever moves follow.
///
/// The material test of article 6.9 is [`can_ever_checkmate`] (python-chess's rule). It says
/// "cannot" in these cases, each a proof:
/// - `mater` has its king alone: a king never gives check, and a side gains men only by
///   promoting its own pawns;
/// - `mater` has a lone knight and the other side nothing or queens only (K+N v K, a dead
///   position the Laws recognise, and K+N v K+Q): no pawn is left to promote, so every
///   later position has that material or less, and none is a mate
///   (`knight_cannot_mate_against_queens`, a test, checks every placement);
/// - `mater` has bishops only, every bishop on the board stands on one colour, and there
///   is no pawn or knight: the other side has rooks, queens and bishops of that colour at
///   most, for ever (no pawn can promote). The mated king would be in check from one
///   bishop (two bishops of one colour never give double check: a bishop that uncovers a
///   check moves across the line it leaves, parallel to the other diagonal through the
///   king), so it stands on that colour. Its orthogonal neighbours are of the other
///   colour, where no bishop stands or attacks: each is off the board, attacked by
///   `mater`'s king, or held by a man of the other side; and `mater`'s king, on a legal
///   square (not next to the mated king), touches at most one of them (the squares next to
///   two orthogonal neighbours of a square are that square and its diagonal neighbours).
///   In a corner that leaves one of its two neighbours held, on an edge two of its three,
///   elsewhere three of its four; the diagonal neighbour `d` on the line of the check is
///   next to two of them, so in each case one held by the other side is next to `d`. The
///   man there is a rook or a queen (a bishop cannot stand on that colour), it steps to `d`,
///   taking the bishop or blocking its line, and it is not pinned (only a rook or a queen
///   pins along a rank or file): the king is not mated
///   (`bishop_cannot_mate_against_rooks_and_queens`, a test, checks every placement with
///   one rook or queen).
pub fn material_cannot_mate(pos: &Position, mater: Color) -> bool {
    !can_ever_checkmate(pos, mater)
}

/// `true` if no placement of a king, a bishop and a king with a rook or a queen (`role`)
/// is a checkmate by the bishop's side: checked over every placement, for the material
/// proof of [`material_cannot_mate`].
///
/// A rook or queen that is not next to the mated king only gives it more moves: a mate
/// with it elsewhere would be a mate without it, which K+B v K has not. So it is enough to
/// try, for each mated king `k`, bishop `b` that checks it, king `m` and the other side's
/// piece `r` next to `k`, whether every square next to `k` is held by `r`, attacked by `b`
/// or `m`, or is `b` defended by `m`, and `r` can neither take `b` nor step between.
#[cfg(test)]
fn bishop_cannot_mate_against_rooks_and_queens(role: Role) -> bool {
    for k in Square::all() {
        for b in bishop_attacks(k, Bitboard::EMPTY) {
            for m in Square::all() {
                if m == k || m == b || king_attacks(m).contains(k) {
                    continue;
                }
                for r in king_attacks(k) {
                    if r == b || r == m {
                        continue;
                    }
                    let occupied = Bitboard::from_square(k) | b | m | r;
                    if !bishop_attacks(b, occupied).contains(k) {
                        continue;
                    }
                    let without_king = occupied.without(k);
                    let flight_free = |f: Square| {
                        if f == r {
                            return false;
                        }
                        let attacked = bishop_attacks(b, without_king).contains(f) && f != b;
                        !(attacked || king_attacks(m).contains(f))
                    };
                    if Iterator::any(&mut king_attacks(k).into_iter(), flight_free) {
                        continue;
                    }
                    let between = bishop_attacks(k, occupied) & bishop_attacks(b, occupied);
                    let reach = piece_attacks(role, r, occupied);
                    if !(reach & (between | b)).any() {
                        return false; // a mate
                    }
                }
            }
        }
    }
    true
}

/// `true` if no placement of a king, a knight and a king with queens is a checkmate by the
/// knight's side: checked over every placement, for the material proof of
/// [`material_cannot_mate`].
///
/// A knight's check cannot be blocked and no queen can be pinned (the mating side has no
/// slider), so in a mate no queen attacks the knight, and every square next to the mated
/// king `k` is attacked by the knight or the other king, or holds a queen. It is enough to
/// try, for each `k`, checking knight `n` and king `m`, the queens on exactly the squares
/// next to `k` neither attacks: a queen elsewhere covers nothing, and one that stops
/// another's line to `n` stands on that line, so the queen nearest `n` on it attacks `n`.
#[cfg(test)]
fn knight_cannot_mate_against_queens() -> bool {
    for k in Square::all() {
        for n in knight_attacks(k) {
            for m in Square::all() {
                if m == k || m == n || king_attacks(m).contains(k) {
                    continue;
                }
                let queens = king_attacks(k) - knight_attacks(n) - king_attacks(m) - Bitboard::from_square(m);
                let occupied = queens | Bitboard::from_square(k) | Bitboard::from_square(n) | Bitboard::from_square(m);
                if queens.into_iter().all(|q| !queen_attacks(q, occupied).contains(n)) {
                    return false; // a mate
                }
            }
        }
    }
    true
}

/// `true` if every pawn on the board is locked for ever or runs into a locked one, with the
/// men that can never move beside them, so the other men can only walk regions they can never leave, and none of
/// `mater`'s pieces can ever attack a square where the other king may stand.
///
/// The proof, by induction over any series of legal moves. Call a set of men *frozen*
/// (`frozen_men`) when, while they all stand, none of them can move: a pawn has a frozen
/// man on the square in front of it; a knight, bishop, rook or queen has on every square it
/// could step to (its jumps, or the squares next to it along its lines) a frozen man of its
/// own; a king has on every square next to it a frozen man of its own or a square a frozen
/// enemy man attacks (a stuck piece attacks only its own men, so that is an enemy pawn's
/// attack or an enemy man defended by frozen men). The function requires every pawn to be
/// frozen or to run into a frozen man (below), no en passant capture to be legal now, and
/// no frozen pawn to attack an enemy frozen man. The frozen men are walls. For each other man we compute the region of
/// squares it could ever reach by its own steps through squares that are not walls (other
/// men ignored, which only enlarges the region), a king's region also leaving out the
/// squares frozen enemy men attack (a king never steps into check). The function then
/// requires that
/// - no piece's region holds a square a frozen enemy pawn attacks, and no piece can step
///   from its region onto a frozen enemy man other than the king;
/// - no king can step from its region onto a frozen enemy man that frozen enemy men do not
///   defend.
///
/// While the frozen men stand, these make every move of theirs and every capture of one
/// impossible: a pawn push is blocked, a pawn capture needs an enemy man on a square it
/// attacks (frozen ones are not, kings may not step there, pieces cannot reach one), en
/// passant needs a double step, a stuck piece or king has nowhere to go (a stuck piece
/// attacks only its own men, a stuck king's free neighbours are defended), and a capture
/// of a frozen man needs a man to step onto it (pieces cannot, kings only onto an
/// undefended one). So the frozen men stand for ever, no promotion adds a man, and every
/// other man stays in its region. The other king is then never on a square `mater`'s
/// frozen men attack (its region leaves them out, and it is not in check from one now,
/// which the function also requires), a king never gives check, and the last condition is
/// that no square a moving piece of `mater` attacks from its region (rays stopped by walls
/// only) lies in the other king's region: no check, so no mate; or, where `mater`'s only
/// moving pieces are bishops of one colour, that none of the squares where they could check
/// is a mating square (`no_bishop_mate_on`).
///
/// A pawn that is not frozen may still *run*: push along its file until it reaches a
/// frozen man, before the last rank (`pawn_run`: the squares it may stand on). The proof
/// treats its run as open squares for the other men, and requires that it never captures
/// and is never taken: no square it could attack from its run holds a frozen enemy man or
/// lies on an enemy pawn's run or in an enemy piece's region, no frozen enemy pawn attacks
/// a square of its run (which also rules out en passant: the square passed is on the run),
/// no enemy piece or king can step onto its run, and no square it could attack lies in the
/// region of the other king when that is the defender's (no check, no flight square
/// taken). The defender's running pawns may block its king's flight squares like its
/// pieces, each on one square of its run.
///
/// Where one side can move nothing but its king, the other king's region is cut short
/// (`stalemating_squares`): a step to a square where the first side would be left without
/// a legal move ends the game, so the king walks no further from it, and may take a frozen
/// man there (a pawn the stalemated king defends only from squares it cannot then reach).
/// The mater's king helps a bishop's mate from such a square only when its step there
/// uncovered the check.
///
/// The proof is tried twice: with the stuck pieces frozen, and with only pawns and kings
/// frozen (the pieces then moving men, each in its region): a stuck piece an enemy piece
/// could take fails the first, and a piece that must stay to wall something in the second.
///
/// Three widenings of the above (argued at `frozen_men_prevent_mate` and
/// `frozen_men_attempt`): a running pawn may also run towards an enemy pawn on its file
/// that can never be taken, the two never passing each other; a running pawn or a frozen
/// man that a king or a piece could take is given up and the proof tried again without it;
/// and where a running pawn of `mater`'s could check the other king, each square where it
/// could is ruled out as a mating square by counting its flight squares against what the
/// men of both sides could cover at once.
pub fn frozen_pawns_prevent_mate(pos: &Position, mater: Color) -> bool {
    // Necessary for every pawn to be frozen or run into a frozen man or an enemy pawn, and
    // cheap: most positions stop here.
    if !pawns_run_into_blocked_or_facing_pawns(pos) {
        return false;
    }
    // A king that may still castle, and its castling rooks, are never frozen: castling moves
    // both even where no other move would (a Chess960 king beside its rook).
    let rooks = pos.castling_rights().rooks();
    let mut castlers = rooks;
    for color in [Color::White, Color::Black] {
        if (rooks & pos.by_color(color)).any() {
            castlers |= pos.king_of(color);
        }
    }
    let pawns_and_kings = pos.by_role(Role::Pawn) | pos.by_role(Role::King);
    frozen_men_prevent_mate(pos, mater, pos.occupied() - castlers)
        || frozen_men_prevent_mate(pos, mater, pawns_and_kings - castlers)
}

/// [`frozen_pawns_prevent_mate`]'s proof with the frozen men (`frozen_men`) chosen among
/// `candidates`.
///
/// The running pawns are first all assumed never taken (*kept*); where a king or a piece
/// could step onto a kept pawn's run, that pawn is given up and the proof runs again
/// without the assumption for it (see `Attempt::Taken`). Where a king or a piece could take
/// a frozen man, that man is no longer a candidate (a smaller frozen set is still one, and
/// the man, pawn or piece, then moves in its run or region, and may be taken), and the
/// proof runs again. Each pass gives up a man or a candidate, so the passes end.
fn frozen_men_prevent_mate(pos: &Position, mater: Color, mut candidates: Bitboard) -> bool {
    if pos.legal_ep_square().is_some() {
        return false;
    }
    let mut given_up = Bitboard::EMPTY;
    loop {
        let frozen = frozen_men(pos, candidates);
        let kept = pos.by_role(Role::Pawn) - frozen - given_up;
        match frozen_men_attempt(pos, mater, frozen, kept) {
            Attempt::Proved => return true,
            Attempt::Failed => return false,
            Attempt::Taken(taken) => given_up |= taken,
            Attempt::TakenFrozen(taken) => {
                candidates = candidates - taken;
                given_up |= taken;
            }
        }
    }
}

/// What one pass of [`frozen_men_prevent_mate`] found.
enum Attempt {
    Proved,
    Failed,
    /// These running pawns, assumed kept, could be taken by a king or a piece.
    Taken(Bitboard),
    /// These frozen men could be taken by a king or a piece.
    TakenFrozen(Bitboard),
}

/// One pass of the proof, with the running pawns `kept` assumed never taken.
///
/// A running pawn's run ends before the first frozen man or kept enemy pawn on its file:
/// the two never capture (the proof requires it), so neither leaves the file, and a kept
/// pawn is there for ever, so the pawn below it can never pass the square it stands on now
/// (it only comes closer). Pawns that may be taken by a king or a piece (not by a pawn:
/// the proof rules out every pawn capture) are passed over, as if gone. The assumption is
/// checked in the pass: if any man could step onto a kept pawn's run, the pass answers
/// `Taken`, and the next pass assumes less. By induction, while no kept pawn has been
/// taken, every man stays in the region the pass computed, so no man can ever take one:
/// the first capture of one would be a step from such a region onto its run.
///
/// The other king may then be checked by a running pawn of `mater`'s as well as by its
/// pieces: each square of its region where that could happen is ruled out as a mating
/// square by counting (`short_of_cover`).
fn frozen_men_attempt(pos: &Position, mater: Color, frozen: Bitboard, kept: Bitboard) -> Attempt {
    let attacks_of = |color: Color| frozen_attacks(pos, frozen & pos.by_color(color));
    let attacked_by = [attacks_of(Color::White), attacks_of(Color::Black)];
    // Each side's pawns that are not frozen (they must run into a frozen man or a kept
    // enemy pawn), and their pawn attacks, with those of the frozen pawns.
    let mut runners: [Vec<(Square, Bitboard)>; 2] = [Vec::new(), Vec::new()];
    let mut running = [Bitboard::EMPTY; 2];
    let mut pawn_attacks_ever = [Bitboard::EMPTY; 2];
    for color in [Color::White, Color::Black] {
        let mut pawn_attacks_now = Bitboard::EMPTY;
        let stoppers = frozen | (kept & pos.by_color(!color));
        for square in pos.pieces(color, Role::Pawn) {
            pawn_attacks_now |= pawn_attacks(color, square);
            if frozen.contains(square) {
                pawn_attacks_ever[color.index()] |= pawn_attacks(color, square);
                continue;
            }
            let Some(path) = pawn_run(square, color, stoppers) else { return Attempt::Failed };
            runners[color.index()].push((square, path));
            running[color.index()] |= path;
            for on in path {
                pawn_attacks_ever[color.index()] |= pawn_attacks(color, on);
            }
        }
        if (pawn_attacks_now & pos.by_color(!color)).any() {
            return Attempt::Failed; // a pawn can capture
        }
    }
    for color in [Color::White, Color::Black] {
        let enemy_frozen = frozen & pos.by_color(!color);
        if (pawn_attacks_ever[color.index()] & (enemy_frozen | running[(!color).index()])).any() {
            return Attempt::Failed; // a pawn could take a frozen man or a running pawn (en passant too)
        }
    }
    let defender_king = pos.king_of(!mater);
    if attacked_by[mater.index()].contains(defender_king) {
        return Attempt::Failed; // in check from a frozen man now
    }
    let open = !frozen;
    let kings = pos.by_role(Role::King);
    // Where each king's steps end the game: see `stalemating_squares`.
    let dead_ends = [Color::White, Color::Black].map(|color| {
        let other = !color;
        if (pos.by_color(other) - frozen - kings).any() {
            return Bitboard::EMPTY; // the other side has a man besides its king that can move
        }
        let other_region = flood(pos.king_of(other), open - attacked_by[color.index()], Step::King);
        let flights = king_attacks_but((frozen & pos.by_color(other)) | attacked_by[color.index()]);
        stalemating_squares(other_region, flights)
    });
    // Each of mater's moving pieces (kings aside), with its region and role.
    let mut mater_pieces = Vec::new();
    let mut mater_king = KingRegion::still(pos.king_of(mater));
    let mut defender_king_region = Bitboard::from_square(defender_king);
    let mut defender_men_regions = Vec::new();
    // The squares where a man could step onto a running pawn of each side.
    let mut stepped_on = [Bitboard::EMPTY; 2];
    for color in [Color::White, Color::Black] {
        let enemy_frozen = frozen & pos.by_color(!color);
        let enemy_attacks = attacked_by[(!color).index()];
        let enemy_pawn_attacks = pawn_attacks_ever[(!color).index()];
        for square in pos.by_color(color) - frozen - pos.by_role(Role::Pawn) {
            let role = pos.role_at(square).unwrap_or(Role::King);
            if role == Role::King {
                // A king may stand where a running pawn will attack (it keeps away while
                // the pawn does); the defender's is checked by counting below.
                let dead_ends = dead_ends[color.index()];
                let mut king = KingRegion::flood(square, open - enemy_attacks, dead_ends);
                let steps = steps_from(king.walked, Step::King);
                // A king never steps where a frozen enemy man attacks.
                stepped_on[(!color).index()] |= steps - enemy_attacks;
                let takes = steps & (enemy_frozen - enemy_attacks - kings);
                if (takes - dead_ends).any() {
                    // The king can take an undefended frozen man, and play on.
                    return Attempt::TakenFrozen(takes - dead_ends);
                }
                king.dead_ends |= takes;
                if color == mater {
                    mater_king = king;
                } else {
                    defender_king_region = king.walked | king.dead_ends;
                }
                continue;
            }
            let step = Step::of(role);
            let region = flood(square, open, step);
            let steps = steps_from(region, step);
            if (region & enemy_pawn_attacks).any() {
                return Attempt::Failed; // a pawn could take the piece
            }
            if (steps & (enemy_frozen - kings)).any() {
                return Attempt::TakenFrozen(steps & (enemy_frozen - kings));
            }
            stepped_on[(!color).index()] |= steps;
            if color == mater {
                mater_pieces.push((role, region));
            } else {
                defender_men_regions.push(region);
            }
        }
    }
    // A kept pawn whose run a man could step onto is given up.
    let mut taken = Bitboard::EMPTY;
    for color in [Color::White, Color::Black] {
        for &(square, path) in &runners[color.index()] {
            if kept.contains(square) && (path & stepped_on[color.index()]).any() {
                taken |= square;
            }
        }
    }
    if taken.any() {
        return Attempt::Taken(taken);
    }
    // The defender's running pawns block like its pieces, each on one square of its run.
    defender_men_regions.extend(runners[(!mater).index()].iter().map(|&(_, path)| path));
    // The squares of the other king's region that a moving man of `mater`'s could ever
    // attack: only there can it be checked (a frozen man never checks it: its region
    // leaves their attacks out, and it is not in check from one now).
    let mut checks = pawn_attacks_ever[mater.index()] & defender_king_region;
    let pawn_checks = checks;
    let mut attacking = Vec::new();
    for &(role, region) in &mater_pieces {
        let mut reach = Bitboard::EMPTY;
        for from in region {
            reach |= piece_attacks(role, from, frozen);
        }
        if (reach & defender_king_region).any() {
            checks |= reach & defender_king_region;
            attacking.push((role, region));
        }
    }
    if checks.is_empty() {
        return Attempt::Proved;
    }
    let mater_runs: Vec<Bitboard> = runners[mater.index()].iter().map(|&(_, path)| path).collect();
    let cover = Cover {
        frozen,
        mater,
        flights: open - attacked_by[mater.index()],
        mater_pieces: &mater_pieces,
        mater_runs: &mater_runs,
        mater_king: mater_king.walked | mater_king.dead_ends,
        blockers: &defender_men_regions,
    };
    // Where only bishops of one colour can check, `no_bishop_mate_on` applies.
    let bishops_rule = pawn_checks.is_empty() && {
        let mut squares = Bitboard::EMPTY;
        let mut all_bishops = true;
        for &(role, region) in &attacking {
            all_bishops &= role == Role::Bishop;
            squares |= region;
        }
        all_bishops && ((squares & Bitboard::LIGHT_SQUARES).is_empty() || (squares & Bitboard::DARK_SQUARES).is_empty())
    };
    // The defender's king never stands on a frozen man (its own, or one of `mater`'s next
    // to its region, which are defended) nor on a square `mater`'s frozen men attack.
    let covered = attacked_by[mater.index()] | frozen;
    let proved = checks.into_iter().all(|square| {
        if bishops_rule {
            // Only bishops of one colour can check: see `no_bishop_mate_on`. The mater's
            // king helps from a dead end only when its step there uncovers the bishop's
            // check: it came from a square it walks, on a diagonal to the mated king.
            let uncovering = mater_king.walked & bishop_attacks(square, frozen);
            let helping = mater_king.walked | (mater_king.dead_ends & steps_from(uncovering, Step::King));
            if no_bishop_mate_on(square, covered, &defender_men_regions, helping) {
                return true;
            }
        }
        cover.short_of_cover(square)
    });
    if proved {
        Attempt::Proved
    } else {
        Attempt::Failed
    }
}

/// What could cover the flight squares of the defender's king, for the counting argument
/// of [`frozen_men_attempt`].
struct Cover<'a> {
    /// The men that never move: walls for sliders' lines.
    frozen: Bitboard,
    /// The squares the defender's king may ever step to: neither a frozen man nor attacked
    /// by a frozen man of `mater`'s.
    flights: Bitboard,
    /// `mater`'s moving pieces, kings aside: role and region.
    mater_pieces: &'a [(Role, Bitboard)],
    /// The side that would mate.
    mater: Color,
    /// The runs of `mater`'s running pawns.
    mater_runs: &'a [Bitboard],
    /// The squares `mater`'s king may stand on.
    mater_king: Bitboard,
    /// The regions of the defender's moving men, kings aside.
    blockers: &'a [Bitboard],
}

impl Cover<'_> {
    /// `true` if the defender's king can never be mated on `square`: it has more flight
    /// squares there than the men of both sides could ever take away at once.
    ///
    /// In a mate every square next to the king that is not a wall or attacked by a frozen
    /// man of `mater`'s (those are `flights` here) is attacked by a moving man of
    /// `mater`'s or holds a man of the defender's (a man of `mater`'s standing there needs
    /// another to defend it, which then attacks the square). So the flights number at most
    /// the sum, over the men, of how many of them each could attack or block from one
    /// square of its region: a piece's attacks with only frozen men in the way (more men
    /// only cut its lines), a running pawn's two attacks, the king's neighbours from a
    /// square not next to the mated king, one square for a defender's man. If the flights
    /// outnumber that, there is no mate on `square`.
    fn short_of_cover(&self, square: Square) -> bool {
        let flights = king_attacks(square) & self.flights;
        let needed = flights.count();
        let mut covered = 0;
        let best = |squares: Bitboard, attacks: &dyn Fn(Square) -> Bitboard| {
            squares.into_iter().map(|from| (attacks(from) & flights).count()).max().unwrap_or(0)
        };
        for &(role, region) in self.mater_pieces {
            covered += best(region, &|from| piece_attacks(role, from, self.frozen));
            if covered >= needed {
                return false;
            }
        }
        for &run in self.mater_runs {
            covered += best(run, &|from| pawn_attacks(self.mater, from));
            if covered >= needed {
                return false;
            }
        }
        let near = king_attacks(square).with(square);
        covered += best(self.mater_king - near, &king_attacks);
        covered += self.blockers.iter().filter(|region| (**region & flights).any()).count() as u32;
        covered < needed
    }
}
/// The squares a king may ever stand on: those it walks on (and may leave), and those it can
/// step to where the game then ends at once (see `stalemating_squares`).
#[derive(Clone, Copy)]
struct KingRegion {
    walked: Bitboard,
    dead_ends: Bitboard,
}

impl KingRegion {
    /// A king that stands where it is.
    fn still(square: Square) -> KingRegion {
        KingRegion { walked: Bitboard::from_square(square), dead_ends: Bitboard::EMPTY }
    }

    /// The squares reachable from `start` by king steps through `passable`, where a step to
    /// a square of `dead_ends` (other than `start`) goes no further.
    fn flood(start: Square, passable: Bitboard, dead_ends: Bitboard) -> KingRegion {
        let mut walked = Bitboard::from_square(start);
        let mut entered = Bitboard::EMPTY;
        let mut frontier = walked;
        while frontier.any() {
            let next = steps_from(frontier, Step::King) & (passable - walked - entered);
            entered |= next & dead_ends;
            frontier = next - dead_ends;
            walked |= frontier;
        }
        KingRegion { walked, dead_ends: entered }
    }
}

/// The squares next to `square` but those of `barred`, as a function of `square`: where a
/// king may step from it, the men of `barred` aside.
fn king_attacks_but(barred: Bitboard) -> impl Fn(Square) -> Bitboard {
    move |square| king_attacks(square) - barred
}

/// The squares where a king, once it stands there, leaves the other side without a legal
/// move, given that the other side can move nothing but its king, that king stands on a
/// square of `region`, and from a square `x` it can step at most to `flights(x)` whatever
/// else is on the board.
///
/// Why a king's step there ends the game: after it, the other side is to move, its king on
/// some `x` of `region` neither next to that square nor on it, and every square of
/// `flights(x)` is next to the king that just moved, so none is legal. A king never stands
/// on such a square when its own side is to move (but at the root): the move before was the
/// other side's, from the same position of this king, and it had no move. So from a dead
/// end the king goes no further and takes nothing: the game is over (stalemate, or mate of
/// the other side, which the proof's checks cover).
fn stalemating_squares(region: Bitboard, flights: impl Fn(Square) -> Bitboard) -> Bitboard {
    let mut dead = Bitboard::FULL;
    for x in region {
        // Where the king must stand to cover every flight from `x`.
        let mut covering = Bitboard::FULL;
        for flight in flights(x) {
            covering &= king_attacks(flight);
        }
        dead &= covering | king_attacks(x) | Bitboard::from_square(x);
    }
    dead
}

/// `true` if the defender's king cannot be mated on `square` by bishops of `square`'s
/// colour, in a frozen position: `covered` holds the squares the king can never step to
/// (enemy pawn attacks, its own pawns), `blockers` the regions of the defender's other
/// pieces (each may stand on one square of its region, blocking it), `mater_king_region`
/// the squares the mater's king can stand on when it mates.
///
/// The king's orthogonal neighbours are of the other colour, which the bishops neither
/// stand on nor attack; a neighbour not covered is a flight square unless one of the
/// defender's pieces stands on it (one piece, one square) or the mater's king attacks it. A
/// king not next to the mated king touches at most one orthogonal neighbour of its square
/// (the squares next to two of them are the square and its diagonal neighbours). So if the
/// free neighbours outnumber the pieces able to reach one of them by two, there is no mate
/// there, and by one, none unless the mater's king can reach a square next to one of them
/// and not next to the mated king.
fn no_bishop_mate_on(square: Square, covered: Bitboard, blockers: &[Bitboard], mater_king_region: Bitboard) -> bool {
    let free = rook_attacks(square, Bitboard::FULL) - covered;
    let able = blockers.iter().filter(|region| (**region & free).any()).count() as u32;
    let unblocked = free.count().saturating_sub(able);
    match unblocked {
        0 => false,
        1 => {
            let near_king = king_attacks(square) | Bitboard::from_square(square);
            free.into_iter().all(|flight| ((king_attacks(flight) - near_king) & mater_king_region).is_empty())
        }
        _ => true,
    }
}

/// `true` if the board has pawns and none can move now: each has a man on the square in
/// front of it, none attacks an enemy man, and there is no en passant square. A few bitboard
/// operations, cheap enough to run after every move of a game.
///
/// It is the screen [`Game`](crate::Game) runs before asking whether a position is dead.
/// A position without pawns is dead only by material (which [`material_cannot_mate`] covers
/// and [`Position::outcome`] applies), and one with a pawn free to move is almost never
/// dead: the screen lets [`Game`](crate::Game) skip the question there, and so it misses
/// only dead positions whose pawns can still move, which a game finds dead once they are
/// blocked.
pub fn pawns_blocked(pos: &Position) -> bool {
    pos.by_role(Role::Pawn).any() && pos.ep_square().is_none() && no_pawn_move_but_en_passant(pos)
}

/// The squares a pawn not frozen may ever stand on, given that it never captures: its own
/// and those ahead of it on its file up to the first of the men `frozen`; `None` when there
/// is none before the last rank (the pawn could promote).
fn pawn_run(square: Square, color: Color, frozen: Bitboard) -> Option<Bitboard> {
    let step = if color == Color::White { 8 } else { -8 };
    let last = if color == Color::White { Rank::Eighth } else { Rank::First };
    let mut run = Bitboard::from_square(square);
    let mut on = square;
    loop {
        let next = on.offset(step)?;
        if frozen.contains(next) {
            return Some(run);
        }
        if next.rank() == last {
            return None;
        }
        run |= next;
        on = next;
    }
}

/// `true` if some pawn cannot push, no pawn can capture now, there is no en passant square,
/// and each pawn that can push has ahead of it on its file, before the last rank, a pawn
/// that cannot: its file is closed, and it can move only until it reaches that pawn. A few
/// dozen bitboard operations.
///
/// It is the screen [`Game`](crate::Game) runs before the static proofs where pawns can
/// still move ([`pawns_blocked`] screens the positions where none can): a game with a
/// pawn free to run to promotion, or with no blocked pawn, fails it.
pub fn pawns_run_into_blocked_pawns(pos: &Position) -> bool {
    let Some(runs) = PawnRuns::of(pos) else { return false };
    let stoppers = ((runs.white << 8) | (runs.black >> 8)) & runs.occupied;
    stoppers & !runs.blocked == 0 && !runs.reach_last_rank() && no_pawn_capture(pos)
}

/// [`pawns_run_into_blocked_pawns`] with one more way for a pushing pawn to stop: at an
/// enemy pawn on its file, which may be pushing towards it (the frozen-men proof then
/// bounds both runs, or fails). Necessary for that proof, and nearly as cheap.
fn pawns_run_into_blocked_or_facing_pawns(pos: &Position) -> bool {
    let Some(runs) = PawnRuns::of(pos) else { return false };
    let white_stoppers = (runs.white << 8) & runs.occupied;
    let black_stoppers = (runs.black >> 8) & runs.occupied;
    white_stoppers & !(runs.blocked | runs.black_pawns) == 0
        && black_stoppers & !(runs.blocked | runs.white_pawns) == 0
        && !runs.reach_last_rank()
        && no_pawn_capture(pos)
}

/// The squares each side's pushing pawns can run over on their files, for the two screens
/// above: each pushing pawn's file ahead through empty squares.
struct PawnRuns {
    white: u64,
    black: u64,
    white_pawns: u64,
    black_pawns: u64,
    /// Pawns with a man on the square in front of them.
    blocked: u64,
    occupied: u64,
}

impl PawnRuns {
    /// `None` where no pawn is blocked (a pushing pawn must run into one, so most positions
    /// stop here) or where an en passant capture is possible.
    #[inline]
    fn of(pos: &Position) -> Option<PawnRuns> {
        let white_pawns = pos.pieces(Color::White, Role::Pawn).0;
        let black_pawns = pos.pieces(Color::Black, Role::Pawn).0;
        let occupied = pos.occupied().0;
        let white_blocked = white_pawns & (occupied >> 8);
        let black_blocked = black_pawns & (occupied << 8);
        let blocked = white_blocked | black_blocked;
        if blocked == 0 || pos.ep_square().is_some() {
            return None;
        }
        // A fill in three doubling steps.
        let empty = !occupied;
        let (mut white, mut black) = (white_pawns & !white_blocked, black_pawns & !black_blocked);
        let (mut north, mut south) = (empty, empty);
        for shift in [8, 16, 32] {
            white |= north & (white << shift);
            black |= south & (black >> shift);
            north &= north << shift;
            south &= south >> shift;
        }
        Some(PawnRuns { white, black, white_pawns, black_pawns, blocked, occupied })
    }

    /// `true` if some run reaches the promotion rank.
    #[inline]
    fn reach_last_rank(&self) -> bool {
        const RANK_1: u64 = 0xff;
        const RANK_8: u64 = 0xff << 56;
        (self.white & RANK_8) | (self.black & RANK_1) != 0
    }
}

/// `true` if no pawn attacks an enemy man (en passant aside).
fn no_pawn_capture(pos: &Position) -> bool {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let white = pos.pieces(Color::White, Role::Pawn).0;
    let black = pos.pieces(Color::Black, Role::Pawn).0;
    let white_attacks = ((white & !FILE_A) << 7) | ((white & !FILE_H) << 9);
    let black_attacks = ((black & !FILE_A) >> 9) | ((black & !FILE_H) >> 7);
    white_attacks & pos.by_color(Color::Black).0 == 0 && black_attacks & pos.by_color(Color::White).0 == 0
}

/// `true` if no pawn can push or capture now (en passant aside): each has a man on the
/// square in front of it and attacks no enemy man.
fn no_pawn_move_but_en_passant(pos: &Position) -> bool {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_H: u64 = FILE_A << 7;
    let white = pos.pieces(Color::White, Role::Pawn).0;
    let black = pos.pieces(Color::Black, Role::Pawn).0;
    let occupied = pos.occupied().0;
    // A white pawn on s is blocked by a man on s + 8, a black one by s - 8.
    let blocked = (white & (occupied >> 8)) | (black & (occupied << 8));
    if blocked != white | black {
        return false;
    }
    let white_attacks = ((white & !FILE_A) << 7) | ((white & !FILE_H) << 9);
    let black_attacks = ((black & !FILE_A) >> 9) | ((black & !FILE_H) >> 7);
    white_attacks & pos.by_color(Color::Black).0 == 0 && black_attacks & pos.by_color(Color::White).0 == 0
}

/// The largest set of the men `candidates` none of which can move while they all stand (see
/// [`frozen_pawns_prevent_mate`] for the rule); whether a man outside the set can capture
/// one, the caller checks.
fn frozen_men(pos: &Position, candidates: Bitboard) -> Bitboard {
    let mut frozen = candidates;
    loop {
        let mut next = Bitboard::EMPTY;
        let attacks = [
            frozen_attacks(pos, frozen & pos.by_color(Color::White)),
            frozen_attacks(pos, frozen & pos.by_color(Color::Black)),
        ];
        for square in frozen {
            let Some(piece) = pos.piece_at(square) else { continue };
            let own = frozen & pos.by_color(piece.color);
            let stays = match piece.role {
                Role::Pawn => {
                    let front = if piece.color == Color::White { square.offset(8) } else { square.offset(-8) };
                    front.is_some_and(|front| frozen.contains(front))
                }
                Role::King => (king_attacks(square) - own - attacks[(!piece.color).index()]).is_empty(),
                role => (Step::of(role).taken_from(square) - own).is_empty(),
            };
            if stays {
                next |= square;
            }
        }
        if next == frozen {
            return frozen;
        }
        frozen = next;
    }
}

/// The squares the frozen men `men` attack: a pawn's two, a king's neighbours, a stuck
/// piece's steps (its own men, all of them frozen).
fn frozen_attacks(pos: &Position, men: Bitboard) -> Bitboard {
    let mut attacked = Bitboard::EMPTY;
    for square in men {
        let Some(piece) = pos.piece_at(square) else { continue };
        attacked |= match piece.role {
            Role::Pawn => pawn_attacks(piece.color, square),
            Role::King => king_attacks(square),
            role => Step::of(role).taken_from(square),
        };
    }
    attacked
}

/// One step of a man's movement (sliders one square along each line: a slide is a series of
/// such steps through empty squares), taken from every square of a set at once by shifting
/// the set: the floods below take many steps, and a step per square was most of their time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// One square in any direction: a king, and a queen one square at a time.
    King,
    Knight,
    /// One square diagonally: a bishop.
    Diagonal,
    /// One square along a rank or file: a rook.
    Orthogonal,
}

impl Step {
    /// The step of a piece of `role` (a pawn has none here; it is given the king's).
    fn of(role: Role) -> Step {
        match role {
            Role::Knight => Step::Knight,
            Role::Bishop => Step::Diagonal,
            Role::Rook => Step::Orthogonal,
            _ => Step::King,
        }
    }

    /// The squares one step from some square of `from`.
    fn taken_from_set(self, from: Bitboard) -> Bitboard {
        const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
        const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        const NOT_AB: u64 = 0xfcfc_fcfc_fcfc_fcfc;
        const NOT_GH: u64 = 0x3f3f_3f3f_3f3f_3f3f;
        let b = from.0;
        let orthogonal = || (b << 8) | (b >> 8) | ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
        let diagonal = || ((b << 9) & NOT_A) | ((b << 7) & NOT_H) | ((b >> 7) & NOT_A) | ((b >> 9) & NOT_H);
        Bitboard(match self {
            Step::King => orthogonal() | diagonal(),
            Step::Orthogonal => orthogonal(),
            Step::Diagonal => diagonal(),
            Step::Knight => {
                let one = ((b << 1) & NOT_A) | ((b >> 1) & NOT_H);
                let two = ((b << 2) & NOT_AB) | ((b >> 2) & NOT_GH);
                (one << 16) | (one >> 16) | (two << 8) | (two >> 8)
            }
        })
    }

    /// The squares one step from `square`.
    fn taken_from(self, square: Square) -> Bitboard {
        self.taken_from_set(Bitboard::from_square(square))
    }
}

/// The squares a piece of `role` on `square` attacks with only `walls` in the way.
fn piece_attacks(role: Role, square: Square, walls: Bitboard) -> Bitboard {
    match role {
        Role::Knight => knight_attacks(square),
        Role::Bishop => bishop_attacks(square, walls),
        Role::Rook => rook_attacks(square, walls),
        _ => queen_attacks(square, walls),
    }
}

/// Every square reachable from `start` by `step`s through squares of `passable`, with
/// `start` itself.
fn flood(start: Square, passable: Bitboard, step: Step) -> Bitboard {
    let mut region = Bitboard::from_square(start);
    let mut frontier = region;
    while frontier.any() {
        let next = steps_from(frontier, step) & (passable - region);
        region |= next;
        frontier = next;
    }
    region
}

/// The squares one `step` from some square of `squares`.
fn steps_from(squares: Bitboard, step: Step) -> Bitboard {
    step.taken_from_set(squares)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_from_a_set_is_the_union_of_the_steps_from_its_squares() {
        let one_by_one = |step: Step, square: Square| match step {
            Step::King => king_attacks(square),
            Step::Knight => knight_attacks(square),
            Step::Diagonal => bishop_attacks(square, Bitboard::FULL),
            Step::Orthogonal => rook_attacks(square, Bitboard::FULL),
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for step in [Step::King, Step::Knight, Step::Diagonal, Step::Orthogonal] {
            for square in Bitboard::FULL {
                assert_eq!(step.taken_from(square), one_by_one(step, square), "{step:?} from {square}");
            }
            for _ in 0..200 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let set = Bitboard(seed);
                let union = set.into_iter().fold(Bitboard::EMPTY, |acc, sq| acc | one_by_one(step, sq));
                assert_eq!(step.taken_from_set(set), union, "{step:?}");
            }
        }
    }

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn material_proofs_and_their_limits() {
        let cannot = |fen: &str, mater| material_cannot_mate(&pos(fen), mater);
        assert!(cannot("4k3/8/8/8/8/8/8/4K2Q w - - 0 1", Color::Black), "a bare king");
        assert!(cannot("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", Color::White), "K+N v K");
        assert!(cannot("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", Color::Black), "a bare king");
        assert!(cannot("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", Color::White), "bishops on dark squares only");
        assert!(cannot("4k3/8/8/8/8/8/3q4/4KN2 w - - 0 1", Color::White), "K+N v K+Q");
        assert!(cannot("4k3/8/8/8/8/8/3r4/4KB2 w - - 0 1", Color::White), "K+B v K+R");
        assert!(cannot("rr6/rk6/8/8/8/2K5/2B5/8 b - - 0 1", Color::White), "K+B v K+5R");
        assert!(cannot("3kqb2/8/8/8/8/3KB3/8/8 w - - 0 1", Color::White), "K+B v K+Q+B, one colour");
        // A knight, or a bishop of the other colour, can block where a rook could not.
        assert!(!cannot("3kqn2/8/8/8/8/3KB3/8/8 w - - 0 1", Color::White), "K+B v K+Q+N");
        assert!(!cannot("3kqb2/8/8/8/8/3K1B2/8/8 w - - 0 1", Color::White), "K+B v K+Q+B, two colours");
        // Enough material.
        assert!(!cannot("4kb2/8/8/8/8/8/8/3BK3 w - - 0 1", Color::White), "bishops on both colours");
        assert!(!cannot("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", Color::White), "a pawn");
    }

    #[test]
    fn a_lone_bishop_never_mates_against_a_rook_or_a_queen() {
        assert!(bishop_cannot_mate_against_rooks_and_queens(Role::Rook));
        assert!(bishop_cannot_mate_against_rooks_and_queens(Role::Queen));
        // With a knight to block, there are mates: the check finds them.
        assert!(!bishop_cannot_mate_against_rooks_and_queens(Role::Knight));
    }

    #[test]
    fn a_lone_knight_never_mates_against_queens() {
        assert!(knight_cannot_mate_against_queens());
        let cannot = |fen: &str, mater| material_cannot_mate(&pos(fen), mater);
        assert!(cannot("7k/8/7K/8/5N2/1q6/8/8 w - - 0 1", Color::White));
        assert!(!cannot("7k/8/7K/8/5N2/1q6/7p/8 w - - 0 1", Color::White), "a pawn may become a blocker");
    }

    #[test]
    fn pawns_blocked_screen() {
        let blocked = |fen: &str| pawns_blocked(&pos(fen));
        assert!(blocked("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"));
        assert!(blocked("4k3/8/8/4p3/4P3/4P3/8/4K3 w - - 0 1"), "a pawn behind a locked one");
        assert!(blocked("4k3/8/8/8/8/4p3/4K3/8 w - - 0 1"), "a pawn held by a king");
        assert!(blocked("4k3/8/8/8/8/4N3/4P3/4K3 w - - 0 1"), "a pawn behind its own knight");
        assert!(!blocked("4k3/8/8/8/8/8/8/4K2Q w - - 0 1"), "no pawns");
        assert!(!blocked("4k3/8/8/p1p1p1p1/P1P1P1P1/7P/8/4K3 w - - 0 1"), "h3 can move");
        assert!(!blocked("4k3/8/8/p1pp4/P1PP4/8/8/4K3 w - - 0 1"), "c4xd5 and d5xc4");
        assert!(!blocked("4k3/8/8/pnp1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"), "a4xb5 and c4xb5");
        assert!(!blocked("4k3/8/8/8/8/1N6/p7/4K3 w - - 0 1"), "a2xb1 or a2a1 is not blocked");
        assert!(!blocked("4k3/8/1p6/pP6/P7/8/8/4K3 w - a6 0 1"), "an en passant square");
        assert!(!blocked(crate::fen::STARTING_FEN));
    }

    #[test]
    fn frozen_pawn_proofs() {
        let frozen = |fen: &str, mater| frozen_pawns_prevent_mate(&pos(fen), mater);
        // Kings on their own sides of a locked chain that leaves them no way through.
        let wall = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1";
        assert!(frozen(wall, Color::White) && frozen(wall, Color::Black));
        // A rook could take a pawn; a pawn that can still move; an en passant capture.
        assert!(!frozen("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/R3K3 w - - 0 1", Color::White));
        assert!(!frozen("4k3/8/8/p1p1p1p1/P1P1P1P1/8/7P/4K3 w - - 0 1", Color::Black));
        assert!(!frozen("4k3/8/8/p1p1pPp1/P1P1P1P1/8/8/4K3 w - e6 0 1", Color::White));
        // A king that can walk round to undefended pawns.
        assert!(!frozen("4k3/8/8/p1p1p3/P1P1P3/8/8/4K3 w - - 0 1", Color::White));
        // The a2 pawn is held by a king that can never move (Ka1, walled in by a2, b2 and
        // b1, which a2 attacks), and b2 is defended by it for ever: the dark bishops can
        // check, but no square they check is a mating square (the bishops rule); the light
        // bishop never attacks the white king's square.
        let stuck = "k6B/1b4B1/5B2/4B3/3B4/1pB5/pP6/K7 w - - 0 1";
        assert!(frozen_men(&pos(stuck), pos(stuck).occupied()).contains(Square::A1));
        assert!(frozen(stuck, Color::White) && frozen(stuck, Color::Black));
    }

    #[test]
    fn pawns_that_run_into_blocked_pawns() {
        let screen = |fen: &str| pawns_run_into_blocked_pawns(&pos(fen));
        let frozen = |fen: &str, mater| frozen_pawns_prevent_mate(&pos(fen), mater);
        // a2 can go to a3 only, g2 to g3: then they stand for ever, and nothing else moves
        // but the kings, each on its own side of the chain.
        let runs = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/P5P1/4K3 w - - 0 1";
        assert!(screen(runs) && !pawns_blocked(&pos(runs)));
        assert!(frozen(runs, Color::White) && frozen(runs, Color::Black));
        let runs = "2k5/2p1p1p1/p1P1P1P1/P6K/2P5/8/8/8 w - - 0 1";
        assert!(screen(runs) && frozen(runs, Color::White) && frozen(runs, Color::Black));
        assert!(!screen(crate::fen::STARTING_FEN), "e7, ahead of e2, can move");
        assert!(!screen("4k3/8/8/p1p1p1p1/P1P1P3/8/7P/4K3 w - - 0 1"), "h2 runs to promotion");
        // b2 can go to b3, where a4 takes it.
        let taken = "4k3/8/8/1p6/pP6/P7/1P6/4K3 w - - 0 1";
        assert!(screen(taken) && !frozen(taken, Color::White) && !frozen(taken, Color::Black));
        // A bishop that could take the running g-pawn on g3.
        assert!(!frozen("4k3/8/8/p1p1p1p1/P1P1P1P1/8/3b2P1/4K3 w - - 0 1", Color::Black));
    }

    /// [`pawns_run_into_blocked_pawns`] pawn by pawn, as its documentation says.
    fn runs_into_blocked_pawns_slowly(pos: &Position) -> bool {
        let pawns = pos.by_role(Role::Pawn);
        let blocked_now = |square: Square, color: Color| {
            square
                .offset(if color == Color::White { 8 } else { -8 })
                .is_some_and(|front| pos.occupied().contains(front))
        };
        let runs_into_blocked = |square: Square| {
            let color = pos.piece_at(square).unwrap().color;
            let mut on = square;
            while let Some(next) = on.offset(if color == Color::White { 8 } else { -8 }) {
                if let Some(piece) = pos.piece_at(next) {
                    return piece.role == Role::Pawn && blocked_now(next, piece.color);
                }
                on = next;
            }
            false
        };
        pawns.any()
            && pos.ep_square().is_none()
            && no_pawn_capture(pos)
            && pawns.into_iter().all(|sq| blocked_now(sq, pos.piece_at(sq).unwrap().color) || runs_into_blocked(sq))
    }

    #[test]
    fn the_run_screen_agrees_with_its_definition() {
        let mut random = 0x2545_f491_4f6c_dd1d_u64;
        let starts = [crate::fen::STARTING_FEN, "4k3/8/8/p1p1p1p1/P1P1P1P1/8/P5P1/4K3 w - - 0 1"];
        let (mut checked, mut passed) = (0, 0);
        for start in starts {
            for _ in 0..60 {
                let mut p = pos(start);
                for _ in 0..80 {
                    assert_eq!(pawns_run_into_blocked_pawns(&p), runs_into_blocked_pawns_slowly(&p), "{}", p.fen());
                    checked += 1;
                    passed += usize::from(pawns_run_into_blocked_pawns(&p));
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    random ^= random << 13;
                    random ^= random >> 7;
                    random ^= random << 17;
                    p.play_unchecked(moves[(random % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(passed > 0 && passed < checked, "{passed} of {checked}");
    }

    #[test]
    fn pawns_that_run_towards_each_other() {
        let frozen = |fen: &str, mater| frozen_pawns_prevent_mate(&pos(fen), mater);
        // a2 and c2 run up while a5 and c5 run down: neither pair can ever pass. White's
        // king may eat a5 and c5 (then a2 and c2 run on to the locked sixth rank), and
        // Black's pawns may check it, but never with too few squares left to flee.
        let facing = "4k3/p1p1p1p1/P1P1P1P1/p1p5/8/8/P1P5/3K4 w - - 0 1";
        assert!(!pawns_run_into_blocked_pawns(&pos(facing)) && pawns_run_into_blocked_or_facing_pawns(&pos(facing)));
        assert!(frozen(facing, Color::White) && frozen(facing, Color::Black));
        // White's king can reach d5 and take the locked e5 pawn: e4 then runs to e5.
        let taken = "4k3/p1p1p1p1/P1P1P1P1/p1p1p3/4P3/8/P1P5/3K4 w - - 0 1";
        assert!(frozen(taken, Color::White) && frozen(taken, Color::Black));
        // h2 and h5 run towards each other, but White's king can take Black's pawn and let
        // h2 through to promote: not a proof (White can mate).
        let through = "4k3/p1p1p1p1/P1P1P1P1/7p/8/8/7P/3K4 w - - 0 1";
        assert!(pawns_run_into_blocked_or_facing_pawns(&pos(through)) && !frozen(through, Color::White));
    }

    #[test]
    fn steps_that_stalemate_end_the_kings_walk() {
        let frozen = |fen: &str, mater| frozen_pawns_prevent_mate(&pos(fen), mater);
        // White can move only its king, between h3 and h4. Black's king takes h5 only from
        // g5 and g2 only from f1, g1 or h1 (with White's king on h4): Kg5 and Kxg2 both
        // leave White without a move. The dark bishops check on h4, but h3 is free unless
        // Black's king stands on g2 or h2, which it reaches only by a step that stalemates.
        for fen in ["1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1", "8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1"] {
            assert!(frozen(fen, Color::White) && frozen(fen, Color::Black), "{fen}");
        }
        let p = pos("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/8 w - - 0 1");
        let attacked = [Square::G4, Square::G5, Square::H2].into_iter().fold(Bitboard::EMPTY, |b, s| b | s);
        let white_king = flood(Square::H3, !p.by_role(Role::Pawn) - attacked, Step::King);
        assert_eq!(white_king, Bitboard::from_square(Square::H3) | Square::H4);
        let dead = stalemating_squares(white_king, |x| king_attacks(x) & white_king);
        assert!(dead.contains(Square::G5) && dead.contains(Square::H2) && dead.contains(Square::G2));
        assert!(!dead.contains(Square::F6) && !dead.contains(Square::G1));
        // A white knight that can always move: no stalemate stops Black's king taking h5.
        assert!(!frozen("1k6/b1b5/7p/5p1P/5p2/5PpK/6P1/N7 w - - 0 1", Color::Black));
    }
}
