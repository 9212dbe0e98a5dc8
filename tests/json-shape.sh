#!/bin/sh
# json-shape.sh: pipescope's -J and --json-stream documents, client and
# server, have the shape iperf3 3.21 writes (tests/fixtures/iperf3-3.21:
# every key path iperf3 writes, with its JSON type; extra keys only under
# "pipescope") and iperf3's `sender` flags ("this host sent"). Each
# recorded case runs with its own command line (-t 1) pipescope against
# pipescope, against Debian's iperf3 3.12, and against IPERF3_NEW (a newer
# iperf3) when it is set.
. "${top_srcdir:-$(dirname "$0")/..}/tests/lib.sh"
need_cmd jq jq
need_cmd python3 python3
trap kill_bg EXIT
fx=$top_srcdir/tests/fixtures/iperf3-3.21
shape=$top_srcdir/tests/tools/ps-jsonshape.py
dir=$(mktemp -d)
n=0

# iperf3's sender flags, for a document of a host that sends the client's
# direction ($e true: a client without -R, a server with -R)
senders='.end as $x | ($e | not) as $ne |
	def half(f): ([$x.streams[] | select(f)] | length) * 2 == ($x.streams | length);
	if $x.sum then
		$x.sum.sender == $e and $x.sum_sent.sender and ($x.sum_received.sender | not) and
		if $x.sum_bidir_reverse then
			$x.sum_bidir_reverse.sender == $ne and $x.sum_sent_bidir_reverse.sender and
			($x.sum_received_bidir_reverse.sender | not) and half(.udp.sender)
		else all($x.streams[]; .udp.sender == $e) end
	else
		$x.sum_sent.sender == $e and $x.sum_received.sender == $e and
		all($x.streams[]; .sender.sender == .receiver.sender) and
		if $x.sum_sent_bidir_reverse then
			$x.sum_sent_bidir_reverse.sender == $ne and
			$x.sum_received_bidir_reverse.sender == $ne and half(.sender.sender)
		else all($x.streams[]; .sender.sender == $e) end
	end'

# compare_doc WHAT REF OURS [--stream]: the shape, then the sender flags
compare_doc() {
	T_COUNT=$((T_COUNT + 1))
	if diffs=$(python3 "$shape" ${4:-} "$2" "$3" 2>&1); then
		pass "$1: the shape of iperf3 3.21's"
	else
		fail "$1: $(printf '%s' "$diffs" | head -n 8 | tr '\n' ';')"
	fi
}

# check_senders WHAT DOC E: the sender flags as iperf3's
check_senders() {
	check "$1: sender flags mean \"this host sent\"" \
		jq -e --argjson e "$3" "$senders" "$2" >/dev/null
}

# the expectations are iperf3's own: they hold on the recorded documents
for c in default R P4 udp500M udpR bidir udpbidir; do
	case $(cat "$fx/$c.cli.cmd") in *" -R"*) e=false ;; *) e=true ;; esac
	check_senders "iperf3 3.21 $c client" "$fx/$c.cli.json" $e
	check_senders "iperf3 3.21 $c server" "$fx/$c.srv.json" $([ $e = true ] && echo false || echo true)
done

# run CASE SERVER CLIENT: one test with CASE's command line; the documents
# of the pipescope end(s) are compared with the recorded ones
run() {
	c=$1 sv=$2 cl=$3
	n=$((n + 1))
	port=$(free_port $n)
	# the recorded command line without its port, duration and output
	args=$(sed -e 's/^iperf3 -c [^ ]* -p [0-9]* //' -e 's/-t 2 //' \
		-e 's/ *-J *$//' -e 's/ *--json-stream *$//' "$fx/$c.cli.cmd")
	out=-J
	[ "$c" = jsonstream ] && out=--json-stream
	case $sv in
	pipescope) bg "$PIPESCOPE" -s -1 -p "$port" -J ;;
	*) bg "$sv" -s -1 -p "$port" -J ;;
	esac >"$dir/srv.json" 2>"$dir/srv.err"
	wait_listen "$port" || { fail "$c: $sv did not listen"; return; }
	case $cl in
	pipescope) set -- "$PIPESCOPE" ;;
	*) set -- "$cl" ;;
	esac
	# shellcheck disable=SC2086
	timeout 30 "$@" -c 127.0.0.1 -p "$port" -t 1 $args $out \
		>"$dir/cli.json" 2>"$dir/cli.err"
	rc=$?
	wait "$LAST_PID" 2>/dev/null
	w="$c ($cl -> $sv)"
	T_COUNT=$((T_COUNT + 1))
	if [ $rc -ne 0 ]; then
		fail "$w: client exit $rc: $(head -c 300 "$dir/cli.err")"
		return
	fi
	pass "$w: ran"
	case $args in *-R*) e=false ;; *) e=true ;; esac
	ne=$([ $e = true ] && echo false || echo true)
	if [ "$cl" = pipescope ]; then
		if [ "$c" = jsonstream ]; then
			compare_doc "$w client" "$fx/$c.cli.json" "$dir/cli.json" --stream
		else
			compare_doc "$w client" "$fx/$c.cli.json" "$dir/cli.json"
			check_senders "$w client" "$dir/cli.json" $e
		fi
	fi
	# a pipescope client does not send -T yet (issue 18, item 3)
	if [ "$sv" = pipescope ] && [ "$c:$cl" != title:pipescope ]; then
		compare_doc "$w server" "$fx/$c.srv.json" "$dir/srv.json"
		check_senders "$w server" "$dir/srv.json" $ne
	fi
	case $c in
	w1M)
		for d in cli srv; do
			[ "$d" = cli ] && [ "$cl" != pipescope ] && continue
			[ "$d" = srv ] && [ "$sv" != pipescope ] && continue
			check "$w $d: -w 1M in sock_bufsize, sndbuf/rcvbuf_actual" jq -e \
				'.start | .sock_bufsize == 1048576 and .sndbuf_actual > 0 and .rcvbuf_actual > 0' \
				"$dir/$d.json" >/dev/null
		done ;;
	gso)
		check "$w: a -J server's output is server_output_json" \
			jq -e '.server_output_json.end.sum_received.bytes > 0 and (has("server_output_text") | not)' \
			"$dir/cli.json" >/dev/null ;;
	title)
		[ "$sv" = pipescope ] && [ "$cl" != pipescope ] &&
			check "$w: the server's document has the title" \
			jq -e '.title == "mytitle"' "$dir/srv.json" >/dev/null ;;
	esac
}

cases="default R P4 udp500M udpR bidir udpbidir jsonstream gso w1M title"
for c in $cases; do
	run "$c" pipescope pipescope
done

# iperf3 peers: ours is the client or the server (-P 4 and -u -b 500M
# have the shapes of the default and -u -R rows there). 3.12 has no
# --json-stream, and its server_output_json is its own (older) shape;
# a pipescope client's --get-server-output reaches a 3.17+ server only
# as integers (issue 18, item 2), so those rows wait for it.
peers=""
command -v iperf3 >/dev/null 2>&1 && peers="old:$(command -v iperf3)"
if [ -n "${IPERF3_NEW:-}" ] && [ -x "$IPERF3_NEW" ]; then
	peers="$peers new:$IPERF3_NEW"
else
	echo "skip: the rows against iperf3 3.21 (IPERF3_NEW is not set)"
fi
for p in $peers; do
	kind=${p%%:*} bin=${p#*:}
	for c in default R udpR bidir udpbidir jsonstream gso w1M title; do
		[ "$kind:$c" = old:jsonstream ] || run "$c" pipescope "$bin"
		[ "$c" = gso ] || run "$c" "$bin" pipescope
	done
done

# an error document: start and end as iperf3's; --json-stream ends with end
port=$(free_port 99)
timeout 10 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 -J >"$dir/err.json" 2>/dev/null
compare_doc "connection refused, -J" "$fx/refused.cli.json" "$dir/err.json"
check "connection refused, -J: error, start and end" \
	jq -e '(.error | length > 0) and (.start | type == "object") and .end == {}' "$dir/err.json" >/dev/null
timeout 10 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 --json-stream >"$dir/err.jsonl" 2>/dev/null
compare_doc "connection refused, --json-stream" "$fx/refused-stream.cli.json" "$dir/err.jsonl" --stream
check "connection refused, --json-stream: error, then end" \
	sh -c "jq -s -e '[.[].event] == [\"error\", \"end\"]' '$dir/err.jsonl' >/dev/null"

# a text client prints a -J server's document, as iperf3's
port=$(free_port 98)
bg "$PIPESCOPE" -s -1 -p "$port" -J >/dev/null 2>&1
wait_listen "$port" || fail "the -J server did not listen on $port"
timeout 20 "$PIPESCOPE" -c 127.0.0.1 -p "$port" -t 1 --get-server-output >"$dir/text" 2>&1
wait "$LAST_PID" 2>/dev/null
sed -n '/^Server JSON output:$/,/^pipescope done\.$/p' "$dir/text" | sed '1d;$d' >"$dir/sj.json"
check "a text client prints the -J server's document" \
	jq -e '.end.sum_received.bytes > 0' "$dir/sj.json" >/dev/null

rm -rf "$dir"
finish
