/* Tile-shape analysis. The rank-1 values of a rank-2 kernel get their
 * layout from their uses (union-find over values that must agree): x[:, None]
 * makes x the rows, x[None, :] and broadcasting against a tile make it the
 * columns, a reduction makes it flat; unconstrained values follow their
 * width (C: columns, R: rows, R*C: flat). */
#include "layout/shape.h"

#include <string.h>

typedef struct Shaper {
    MtContext *ctx;
    const Function *f;
    Arena *a;
    int *parent;    /* union-find over value numbers */
    Layout *forced; /* by root; LAYOUT_UNIFORM: none */
    SrcPos *forced_at;
    TileInfo *t;
    int have2, have1;
    Type tile2; /* broadcast of the rank-2 shapes */
    SrcPos tile2_at;
    int width1; /* the rank-1 width of a rank-1 kernel */
    SrcPos width1_at;
    int failed;
    int dot; /* the kernel has a tl.dot: the tile is the bounding box */
} Shaper;

static int find(Shaper *S, int x) {
    while (S->parent[x] != x) x = S->parent[x] = S->parent[S->parent[x]];
    return x;
}

static const char *layout_name(Layout l) {
    switch (l) {
    case LAYOUT_ROWS: return "the rows";
    case LAYOUT_COLS: return "the columns";
    case LAYOUT_FLAT: return "a flat block (a reduction's operand)";
    default: return "uniform";
    }
}

static void force(Shaper *S, int v, Layout l, SrcPos at) {
    if (S->failed) return;
    int r = find(S, v);
    if (S->forced[r] != LAYOUT_UNIFORM && S->forced[r] != l) {
        mt_error(S->ctx, at,
                 "a rank-1 block is used here as %s of the tile, but at line %d as %s (compute it "
                 "separately for each use)",
                 layout_name(l), S->forced_at[r].line, layout_name(S->forced[r]));
        S->failed = 1;
        return;
    }
    S->forced[r] = l;
    S->forced_at[r] = at;
}

static void unite(Shaper *S, int a, int b, SrcPos at) {
    int ra = find(S, a), rb = find(S, b);
    if (ra == rb) return;
    Layout la = S->forced[ra], lb = S->forced[rb];
    S->parent[rb] = ra;
    if (lb != LAYOUT_UNIFORM) {
        if (la == LAYOUT_UNIFORM) S->forced[ra] = lb, S->forced_at[ra] = S->forced_at[rb];
        else if (la != lb) force(S, ra, lb, at);
    }
}

static int is_arange(const Function *f, Operand o) {
    return o.kind == OPD_VALUE && f->defs[o.id] && f->defs[o.id]->op == OP_ARANGE;
}

/* Rank-1 values that take part in layout inference (aranges do not: each
 * use picks its own index). */
static int is_rank1_value(const Shaper *S, Operand o) {
    return o.kind == OPD_VALUE && S->f->types[o.id].rank == 1 && S->f->types[o.id].dims[0] > 1 &&
           !is_arange(S->f, o);
}

/* Pass 1: the tile. */
static void note_type(Shaper *S, Type t, SrcPos at) {
    if (S->failed) return;
    if (t.rank == 2) {
        if (!S->have2) {
            S->tile2 = t;
            S->tile2_at = at;
            S->have2 = 1;
            return;
        }
        Type b;
        if (S->dot) {
            for (int i = 0; i < 2; i++)
                if (t.dims[i] > S->tile2.dims[i]) S->tile2.dims[i] = t.dims[i];
            return;
        }
        if (!shape_broadcast(S->tile2, t, &b)) {
            mt_error(
                S->ctx, at,
                "a block of shape %s cannot share one tile with the block of shape %s at line %d",
                shape_str(S->a, t), shape_str(S->a, S->tile2), S->tile2_at.line);
            S->failed = 1;
            return;
        }
        S->tile2 = type_with_shape(S->tile2, 2, b.dims);
    } else if (t.rank == 1 && t.dims[0] > 1 && !S->have1) {
        S->width1 = t.dims[0];
        S->width1_at = at;
        S->have1 = 1;
    }
}

static void collect_block(Shaper *S, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        if (n) {
            for (int k = 0; k < in->loop->ncarried; k++)
                note_type(S, S->f->types[in->loop->args[k]], in->pos);
            for (int k = 0; k < in->loop->nresults; k++)
                note_type(S, S->f->types[in->loop->results[k]], in->pos);
            for (int k = 0; k < n; k++) collect_block(S, sub[k]);
            continue;
        }
        if (in->result >= 0) note_type(S, in->type, in->pos);
        for (int k = 0; k < in->nargs; k++)
            if (in->args[k].kind == OPD_VALUE) note_type(S, S->f->types[in->args[k].id], in->pos);
    }
}

/* Pass 2: rank-1 widths against the tile. */
static void check_widths(Shaper *S, const Block *b) {
    for (int i = 0; i < b->items.len && !S->failed; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        if (n) {
            for (int k = 0; k < n; k++) check_widths(S, sub[k]);
            continue;
        }
        if (op_has(in->op, OPF_REDUCE) && !(in->attrs.flag & RED_AXIS) && S->t->rank < 2) {
            Type x = operand_type(S->f, in->args[0]);
            if (x.rank == 1 && x.dims[0] != S->t->threads) {
                mt_error(
                    S->ctx, in->pos,
                    "tl.%s over %d elements in a kernel whose tile %s has %d threads (a reduction "
                    "spans the whole "
                    "CUDA block: its width must equal the block size)",
                    op_info(in->op)->name, (int)x.dims[0], tile_str(S->a, S->t), S->t->threads);
                S->failed = 1;
                return;
            }
        }
        Type t = in->type;
        if (in->result < 0 || t.rank != 1 || t.dims[0] <= 1) continue;
        int w = t.dims[0];
        if (S->t->rank == 2) {
            int R = S->t->rows, C = S->t->cols;
            if (S->dot ? (w > R && w > C) : (w != R && w != C && w != R * C)) {
                mt_error(
                    S->ctx, in->pos,
                    "a rank-1 block of width %d does not fit the %s tile (its width must be %d, %d "
                    "or %d)",
                    w, tile_str(S->a, S->t), R, C, R * C);
                S->failed = 1;
            }
        } else if (w != S->width1) {
            mt_error(
                S->ctx, in->pos,
                "rank-1 blocks of widths %d and %d (line %d) in one kernel (the CUDA backend runs "
                "one thread per "
                "element, so a rank-1 kernel has one width)",
                w, S->width1, S->width1_at.line);
            S->failed = 1;
        }
    }
}

/* Pass 3 (rank-2 kernels): constraints on rank-1 layouts. */
static void constrain(Shaper *S, const Block *b) {
    const Function *f = S->f;
    for (int i = 0; i < b->items.len && !S->failed; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int nsub = ssa_blocks(in, sub);
        if (nsub) {
            /* a lane's values share one layout: inputs, arguments, yields
             * (of both branches of an if) and results */
            const Loop *l = in->loop;
            for (int k = 0; k < l->nresults; k++) {
                int r = l->results[k];
                if (f->types[r].rank != 1 || f->types[r].dims[0] <= 1) continue;
                if (k < l->ncarried) {
                    unite(S, l->args[k], r, in->pos);
                    if (is_rank1_value(S, l->inits[k])) unite(S, r, l->inits[k].id, in->pos);
                }
                if (is_rank1_value(S, l->yields[k])) unite(S, r, l->yields[k].id, in->pos);
                if (in->op == OP_IF && is_rank1_value(S, l->else_yields[k]))
                    unite(S, r, l->else_yields[k].id, in->pos);
            }
            for (int k = 0; k < nsub; k++) constrain(S, sub[k]);
            continue;
        }
        if (in->op == OP_EXPAND_DIMS) {
            if (is_rank1_value(S, in->args[0]))
                force(S, in->args[0].id, in->attrs.axis == 1 ? LAYOUT_ROWS : LAYOUT_COLS, in->pos);
            continue;
        }
        if (op_has(in->op, OPF_REDUCE) || op_has(in->op, OPF_SCAN)) {
            Type x = operand_type(f, in->args[0]);
            if (!(in->attrs.flag & RED_AXIS) && x.rank == 1 && x.dims[0] == S->t->threads) {
                if (is_rank1_value(S, in->args[0])) force(S, in->args[0].id, LAYOUT_FLAT, in->pos);
            } else if (op_has(in->op, OPF_SCAN) && is_rank1_value(S, in->args[0])) {
                unite(S, in->result, in->args[0].id, in->pos); /* the same elements */
            }
            continue;
        }
        if (shape_moves_elements(in->op)) continue; /* any layouts: elements exchanged */
        /* the broadcast shape of the op */
        Type shape = in->type;
        if (in->op == OP_STORE) {
            shape = type_scalar(DT_NONE);
            for (int k = 0; k < in->nargs; k++) {
                Type s2;
                if (in->args[k].kind != OPD_NONE &&
                    shape_broadcast(shape, operand_type(f, in->args[k]), &s2))
                    shape = s2;
            }
        }
        for (int k = 0; k < in->nargs; k++) {
            if (!is_rank1_value(S, in->args[k])) continue;
            if (shape.rank == 2) force(S, in->args[k].id, LAYOUT_COLS, in->pos);
            else if (in->result >= 0) unite(S, in->result, in->args[k].id, in->pos);
            else if (in->op == OP_STORE) {
                for (int j = 0; j < k; j++)
                    if (is_rank1_value(S, in->args[j]))
                        unite(S, in->args[j].id, in->args[k].id, in->pos);
            }
        }
    }
}

static Layout layout_of_type(const Shaper *S, Type t) {
    if (t.rank == 0) return LAYOUT_UNIFORM;
    if (t.rank == 2) {
        int r = t.dims[0] > 1, c = t.dims[1] > 1;
        return r && c ? LAYOUT_TILE : r ? LAYOUT_ROWS : c ? LAYOUT_COLS : LAYOUT_UNIFORM;
    }
    if (t.dims[0] <= 1) return LAYOUT_UNIFORM;
    if (S->t->rank != 2) return LAYOUT_FLAT;
    return LAYOUT_FLAT; /* refined by the constraints */
}

static Layout default_layout(const TileInfo *t, int w) {
    if (t->dot_box) return w <= t->cols ? LAYOUT_COLS : LAYOUT_ROWS;
    return w == t->cols ? LAYOUT_COLS : w == t->rows ? LAYOUT_ROWS : LAYOUT_FLAT;
}

void shape_extent(const TileInfo *t, Type ty, Layout l, int *rows, int *cols) {
    *rows = t->rows;
    *cols = t->cols;
    if (ty.rank == 2) {
        if (ty.dims[0] > 1) *rows = ty.dims[0];
        if (ty.dims[1] > 1) *cols = ty.dims[1];
    } else if (ty.rank == 1 && ty.dims[0] > 1) {
        if (l == LAYOUT_ROWS) *rows = ty.dims[0];
        else if (l == LAYOUT_COLS) *cols = ty.dims[0];
    }
}

static int has_dot(const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++)
            if (has_dot(sub[k])) return 1;
        if (in->op == OP_DOT) return 1;
    }
    return 0;
}

/* A transpose, reshape or remap between two rank-2 shapes that do not
 * broadcast together ((M, N) to (N, M) with M != N, (4, 8) to (8, 4)), or a
 * remap between a rank-2 shape and a rank-1 one of another element count
 * (a part of the block: not a flat view of the tile). */
static int has_box_move(const Function *f, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++)
            if (has_box_move(f, sub[k])) return 1;
        if ((in->op == OP_TRANS || in->op == OP_RESHAPE || in->op == OP_REMAP ||
             in->op == OP_GATHER) &&
            in->result >= 0) {
            Type x = operand_type(f, in->args[0]), b2;
            if (x.rank == 2 && in->type.rank == 2 && !shape_broadcast(x, in->type, &b2)) return 1;
            if (in->op == OP_REMAP && x.rank + in->type.rank == 3 &&
                type_numel(x) != type_numel(in->type))
                return 1;
        }
    }
    return 0;
}

Layout shape_use_layout(const TileInfo *t, const Function *f, const Inst *user, int k) {
    const Operand o = user->args[k];
    int w = operand_type(f, o).dims[0];
    if (t->rank != 2) return w > 1 ? LAYOUT_FLAT : LAYOUT_UNIFORM;
    if (w <= 1) return LAYOUT_UNIFORM;
    if (user->op == OP_EXPAND_DIMS) return user->attrs.axis == 1 ? LAYOUT_ROWS : LAYOUT_COLS;
    if (shape_moves_elements(user->op)) return default_layout(t, w);
    if (op_has(user->op, OPF_REDUCE) || op_has(user->op, OPF_SCAN)) {
        if (shape_reduce_flat(t, f, user)) return LAYOUT_FLAT;
        if (op_has(user->op, OPF_SCAN)) return t->layout[user->result];
        return default_layout(t, w);
    }
    if (user->result >= 0)
        return f->types[user->result].rank == 2 ? LAYOUT_COLS : t->layout[user->result];
    /* a store: the broadcast shape of its operands decides */
    for (int j = 0; j < user->nargs; j++)
        if (user->args[j].kind != OPD_NONE && operand_type(f, user->args[j]).rank == 2)
            return LAYOUT_COLS;
    for (int j = 0; j < user->nargs; j++) {
        const Operand x = user->args[j];
        if (x.kind == OPD_VALUE && !is_arange(f, x) && f->types[x.id].rank == 1 &&
            f->types[x.id].dims[0] > 1)
            return t->layout[x.id];
    }
    return default_layout(t, w);
}

static int check_arange_uses(MtContext *ctx, const Function *f, const TileInfo *t, const Block *b) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        if (n) {
            for (int k = 0; k < n; k++)
                if (!check_arange_uses(ctx, f, t, sub[k])) return 0;
            continue;
        }
        for (int k = 0; k < in->nargs; k++) {
            if (!is_arange(f, in->args[k])) continue;
            int w = f->types[in->args[k].id].dims[0];
            Layout l = shape_use_layout(t, f, in, k);
            int want = l == LAYOUT_ROWS   ? t->rows
                       : l == LAYOUT_COLS ? t->cols
                       : l == LAYOUT_FLAT ? t->threads
                                          : w;
            if (t->dot_box ? w > want : w != want) {
                mt_error(ctx, in->pos, "an arange of width %d cannot be %s of the %s tile", w,
                         layout_name(l), tile_str(ctx->arena, t));
                return 0;
            }
        }
    }
    return 1;
}

int shape_moves_elements(Op op) {
    return op == OP_RESHAPE || op == OP_TRANS || op == OP_REMAP || op == OP_JOIN ||
           op == OP_SPLIT || op == OP_XOR_SHUFFLE || op == OP_GATHER;
}

int shape_reduce_flat(const TileInfo *t, const Function *f, const Inst *in) {
    if (!op_has(in->op, OPF_REDUCE) || (in->attrs.flag & RED_AXIS)) return 0;
    Type x = operand_type(f, in->args[0]);
    return x.rank == 1 && x.dims[0] == t->threads &&
           (t->rank < 2 || in->args[0].kind != OPD_VALUE || !t->layout ||
            t->layout[in->args[0].id] == LAYOUT_FLAT || f->defs[in->args[0].id]->op == OP_ARANGE);
}

const char *tile_str(Arena *a, const TileInfo *t) {
    if (t->rank == 2) return arena_printf(a, "(%d, %d)", t->rows, t->cols);
    if (t->rank == 1) return arena_printf(a, "(%d,)", t->cols);
    return "()";
}

int shape_analyze(MtContext *ctx, const Function *f, int max_elements, TileInfo *out) {
    Arena *a = ctx->arena;
    Shaper S = {0};
    S.ctx = ctx;
    S.f = f;
    S.a = a;
    S.t = out;
    memset(out, 0, sizeof *out);
    S.dot = out->dot_box = shape_needs_box(f);
    collect_block(&S, &f->body);
    if (S.failed) return 0;
    if (S.have2) {
        out->rank = 2;
        out->rows = S.tile2.dims[0];
        out->cols = S.tile2.dims[1];
        out->threads = out->rows * out->cols;
    } else if (S.have1) {
        out->rank = 1;
        out->rows = 1;
        out->cols = S.width1;
        out->threads = S.width1;
    } else {
        out->rank = 0;
        out->rows = out->cols = out->threads = 1;
    }
    if ((long long)out->threads > max_elements) {
        if (out->dot_box && max_elements <= 1024 && shape_has_dot(f))
            mt_error(
                ctx, S.tile2_at,
                "the tile %s of a kernel with tl.dot needs %d threads, more than the %d of a CUDA "
                "block (at "
                "-O1 a dot runs one thread per element of the bounding box of its blocks: BLOCK_M "
                "* "
                "BLOCK_N and the operands' shapes at most %d elements; -O2 spreads it over the "
                "threads)",
                tile_str(a, out), out->threads, max_elements, max_elements);
        else if (out->dot_box && max_elements <= 1024)
            mt_error(
                ctx, S.tile2_at,
                "the tile %s needs %d threads, more than the %d of a CUDA block (at -O1 a "
                "transpose or reshape between two rank-2 shapes runs one thread per element of "
                "the bounding box of the kernel's blocks: the box at most %d elements; -O2 "
                "spreads it over the threads)",
                tile_str(a, out), out->threads, max_elements, max_elements);
        else if (max_elements <= 1024)
            mt_error(
                ctx, S.have2 ? S.tile2_at : S.width1_at,
                "the tile %s needs %d threads, more than the %d of a CUDA block (one thread per "
                "element at -O1: "
                "use a smaller block, or -O2)",
                tile_str(a, out), out->threads, max_elements);
        else
            mt_error(
                ctx, S.have2 ? S.tile2_at : S.width1_at,
                "the tile %s has %d elements, more than the %d that one CUDA block holds (1024 "
                "threads of %d "
                "elements each): use a smaller block",
                tile_str(a, out), out->threads, max_elements, max_elements / 1024);
        return 0;
    }
    out->tm = out->tn = 1;
    out->block_threads = out->threads;
    check_widths(&S, &f->body);
    if (S.failed) return 0;
    out->layout = ARENA_ARRAY(a, Layout, f->nvalues + 1);
    S.parent = ARENA_ARRAY(a, int, f->nvalues + 1);
    S.forced = ARENA_ARRAY(a, Layout, f->nvalues + 1);
    S.forced_at = ARENA_ARRAY(a, SrcPos, f->nvalues + 1);
    for (int i = 0; i < f->nvalues; i++) S.parent[i] = i;
    if (out->rank == 2) constrain(&S, &f->body);
    if (S.failed) return 0;
    for (int v = 0; v < f->nvalues; v++) {
        Type t = f->types[v];
        Layout l = layout_of_type(&S, t);
        if (!f->defs[v]) { /* a value a pass removed */
            out->layout[v] = l;
            continue;
        }
        if (out->rank == 2 && t.rank == 1 && t.dims[0] > 1) {
            int w = t.dims[0];
            Layout forced = S.forced[find(&S, v)];
            if (forced == LAYOUT_UNIFORM) forced = default_layout(out, w);
            int want = forced == LAYOUT_ROWS   ? out->rows
                       : forced == LAYOUT_COLS ? out->cols
                                               : out->threads;
            if (out->dot_box ? w > want : w != want) {
                Inst *def = f->defs[v];
                mt_error(ctx, def ? def->pos : srcpos(0, 0),
                         "a rank-1 block of width %d cannot be %s of the %s tile", w,
                         layout_name(forced), tile_str(a, out));
                return 0;
            }
            l = forced;
        }
        out->layout[v] = l;
    }
    return out->rank != 2 || check_arange_uses(ctx, f, out, &f->body);
}

/* Whether two rank-2 shapes of b (or of a region in it) do not broadcast
 * together (*acc: their broadcast so far). */
static int shapes_conflict(const Function *f, const Block *b, Type *acc, int *have) {
    for (int i = 0; i < b->items.len; i++) {
        const Inst *in = b->items.items[i];
        Block *sub[2];
        int n = ssa_blocks(in, sub);
        for (int k = 0; k < n; k++)
            if (shapes_conflict(f, sub[k], acc, have)) return 1;
        if (in->result < 0 || in->type.rank != 2) continue;
        Type bt;
        if (!*have) *acc = in->type, *have = 1;
        else if (!shape_broadcast(*acc, in->type, &bt)) return 1;
        else *acc = bt;
    }
    return 0;
}

int shape_has_dot(const Function *f) { return has_dot(&f->body); }
int shape_needs_box(const Function *f) {
    Type acc = type_scalar(DT_NONE);
    int have = 0;
    return has_dot(&f->body) || has_box_move(f, &f->body) ||
           shapes_conflict(f, &f->body, &acc, &have);
}

const char *tile_group_symbol(Arena *a, const char *symbol, const TileInfo *t) {
    return arena_printf(a, "%s_%dx%d", symbol, t->group_m, t->group_n);
}
