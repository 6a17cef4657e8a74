#!/usr/bin/env bash
# A Tute Cabrero player in plain bash, speaking the raw player protocol
# (docs/protocol.md) over stdin/stdout: a `read -r` loop, fields pulled out
# with [[ =~ ]], replies written with printf (one line each; printf on a pipe
# writes at once, nothing is buffered). Only bash builtins: it spawns nothing.
#
# It is one of the "runtime" bots that exercise what a typical shell player
# does inside the sandbox. Strategy: the cheapest legal card (fewest points,
# then weakest); it never sings and never accuses. legal_cards is a port of
# legalCards in sample_players/node_basico/bot.js.
set -u

# Strength of a rank inside a suit, weakest to strongest: 2 4 5 6 7 10 11 12 3 1.
declare -A STRENGTH=([2]=0 [4]=1 [5]=2 [6]=3 [7]=4 [10]=5 [11]=6 [12]=7 [3]=8 [1]=9)
declare -A POINTS=([1]=11 [3]=10 [12]=4 [11]=3 [10]=2)

trump=""   # suit of trump in this mano (from mano_start)
LEGAL=()   # set by legal_cards

# beats CARD WINNING: a stronger card of the same suit, or a trump on a non-trump.
beats() {
    local r1=${1%%-*} s1=${1#*-} r2=${2%%-*} s2=${2#*-}
    if [[ $s1 == "$s2" ]]; then
        (( STRENGTH[$r1] > STRENGTH[$r2] ))
    else
        [[ $s1 == "$trump" && $s2 != "$trump" ]]
    fi
}

# legal_cards "hand cards..." "table cards...": the cards we may play, into LEGAL.
legal_cards() {
    local -a hand=($1) table=($2)
    local c winning led
    local -a follow=() higher=() trumps=()
    LEGAL=()
    if (( ${#table[@]} == 0 )); then LEGAL=("${hand[@]}"); return; fi  # leading: anything
    led=${table[0]#*-}
    winning=${table[0]}
    for c in "${table[@]:1}"; do
        if beats "$c" "$winning"; then winning=$c; fi
    done
    for c in "${hand[@]}"; do [[ ${c#*-} == "$led" ]] && follow+=("$c"); done
    if (( ${#follow[@]} > 0 )); then
        # 1. Follow suit, and beat the winning card if we can.
        for c in "${follow[@]}"; do beats "$c" "$winning" && higher+=("$c"); done
        if (( ${#higher[@]} > 0 )); then LEGAL=("${higher[@]}"); else LEGAL=("${follow[@]}"); fi
        return
    fi
    # 2. Without the led suit: a trump that beats the winning card, if we have one.
    for c in "${hand[@]}"; do
        [[ ${c#*-} == "$trump" ]] && beats "$c" "$winning" && trumps+=("$c")
    done
    if (( ${#trumps[@]} > 0 )); then LEGAL=("${trumps[@]}"); return; fi
    # 3. Otherwise any card.
    LEGAL=("${hand[@]}")
}

# cheapest CARDS...: the card with fewest points, then weakest, into CARD.
cheapest() {
    local c r best="" bp=0 bs=0 p s
    for c in "$@"; do
        r=${c%%-*}
        p=${POINTS[$r]:-0}
        s=${STRENGTH[$r]}
        if [[ -z $best ]] || (( p < bp || (p == bp && s < bs) )); then best=$c; bp=$p; bs=$s; fi
    done
    CARD=$best
}

# cards_in TEXT: the card names ("12-basto") in TEXT, space separated, into CARDS.
cards_in() {
    local rest=$1 re='"([0-9]+-[a-z]+)"'
    CARDS=""
    while [[ $rest =~ $re ]]; do
        CARDS+="${BASH_REMATCH[1]} "
        rest=${rest#*"${BASH_REMATCH[0]}"}
    done
}

re_type='^\{"type":"([a-z_]+)"'
re_type_any='"type"[[:space:]]*:[[:space:]]*"([a-z_]+)"'
re_id='"id"[[:space:]]*:[[:space:]]*([0-9]+)'
re_hand='"hand"[[:space:]]*:[[:space:]]*\[([^]]*)\]'
re_table='"table"[[:space:]]*:[[:space:]]*\[([^]]*)\]'
re_trump='"trump"[[:space:]]*:[[:space:]]*"([a-z]+)"'

while IFS= read -r line || [[ -n $line ]]; do
    # The type: the referee writes it first; otherwise the first "type" in the line.
    if [[ $line =~ $re_type ]] || [[ $line =~ $re_type_any ]]; then type=${BASH_REMATCH[1]}; else continue; fi
    case $type in
        hello)
            [[ $line =~ $re_id ]] || exit 1
            printf '{"type":"ready","id":%s,"name":"Runtime shell (bash)"}\n' "${BASH_REMATCH[1]}"
            ;;
        play)
            [[ $line =~ $re_id ]] || exit 1
            id=${BASH_REMATCH[1]}
            [[ $line =~ $re_hand ]] || exit 1
            cards_in "${BASH_REMATCH[1]}"; hand=$CARDS
            table=""
            if [[ $line =~ $re_table ]]; then cards_in "${BASH_REMATCH[1]}"; table=$CARDS; fi
            legal_cards "$hand" "$table"
            cheapest "${LEGAL[@]}"
            printf '{"type":"play","id":%s,"card":"%s"}\n' "$id" "$CARD"
            ;;
        review)  # only under the accuse policy: never accuse
            [[ $line =~ $re_id ]] || exit 1
            printf '{"type":"review","id":%s,"accuse":null}\n' "${BASH_REMATCH[1]}"
            ;;
        mano_start)
            [[ $line =~ $re_trump ]] && trump=${BASH_REMATCH[1]}
            ;;
        partido_start)
            printf 'partido_start: %s\n' "${line:0:120}" >&2
            ;;
        bye)
            exit 0
            ;;
    esac  # every other event is ignored
done
exit 0
