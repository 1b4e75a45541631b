"""prial.v1's messages and prial's values, both ways: what the client and
the server say to each other, written once for both so that they cannot
disagree (internal; the service and the client stand on it, and neither
imports the other).

- ``convert``: rules, cards, results and the enums to and from messages;
- ``table``: the betting table's PlayTable messages;
- ``partition_games``: SettlePartitionGame's request;
- ``classic``: SettleClassic's request;
- ``crash_match``: CrashMatch's rules, rounds and answer;
- ``crash_deal``: DealCrash's request and its deal;
- ``encoding``: the wire form itself, for the big batch messages.
"""

# The largest message either way unless a server or client is told
# otherwise: a 1M-hand five-card batch and its answer fit.
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
