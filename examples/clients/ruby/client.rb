#!/usr/bin/env ruby
# frozen_string_literal: true

# A Ruby client of prial.v1.Prial, made from the .proto files alone: its
# stubs are generated when it starts, into a temporary directory, by
# grpc_tools_ruby_protoc (Debian: apt-get install ruby-grpc ruby-grpc-tools
# libprotobuf-dev, the last for protobuf's own .proto files; elsewhere: gem
# install grpc grpc-tools).  It calls Evaluate (three- and five-card hands
# as bytes), Showdown, Partition, CrashShowdown and a bad Evaluate, plays a
# whole deal at the betting table with PlayTable and makes an illegal
# move, and prints one JSON document: each call's request and answer, for
# the bad request the google.rpc.BadRequest it decodes, for the illegal
# move the google.rpc.ErrorInfo.
#
#   prial proto --out protos
#   ruby examples/clients/ruby/client.rb protos 127.0.0.1:50051

require 'grpc'
require 'json'
require 'tmpdir'

PROTOS = %w[prial/v1/prial.proto google/rpc/status.proto google/rpc/error_details.proto].freeze

def fail_with(message)
  warn "client.rb: error: #{message}"
  exit 1
end

# Generates the stubs into out and loads them, ahead of any copy of the
# google/rpc messages a gem may carry: these are the ones the server encodes.
def load_stubs(proto_dir, out)
  generated = system('grpc_tools_ruby_protoc', "-I#{proto_dir}", "--ruby_out=#{out}", "--grpc_out=#{out}", *PROTOS)
  fail_with("grpc_tools_ruby_protoc could not generate the stubs from #{proto_dir}") unless generated
  $LOAD_PATH.unshift(out)
  require 'google/protobuf/well_known_types'
  require 'google/rpc/status_pb'
  require 'google/rpc/error_details_pb'
  require 'prial/v1/prial_services_pb'
end

# Category codes travel as one byte per hand; zero is HIGH_CARD, a real
# category, not "unspecified".
def category_names(bytes)
  bytes.bytes.map { |code| Prial::V1::Category.lookup(code).to_s }
end

def evaluate(stub, hands)
  size = hands.first.size
  request = Prial::V1::EvaluateRequest.new(hand_size: size, cards: hands.flatten.pack('C*'))
  response = stub.evaluate(request)
  answer = { count: response.count, strengths: response.strengths.unpack('v*'),
             categories: category_names(response.categories) }
  answer[:keys] = response.keys.unpack('V*') if size > 3 # best-of keys, four and five cards only
  { request: { hands: hands }, response: answer }
end

def cards(text)
  Prial::V1::Cards.new(text: text)
end

def showdown(stub, players, seer:, pot:)
  request = Prial::V1::ShowdownRequest.new(
    players: players.map { |p| Prial::V1::Player.new(id: p[:id], cards: cards(p[:cards]), stake: p[:stake]) },
    seer: seer, pot: pot
  )
  r = stub.showdown(request)
  hands = r.hands.map { |h| { id: h.id, key: h.key, category: h.category.to_s, description: h.description } }
  { request: { players: players, seer: seer, pot: pot },
    response: { kind: r.kind, seer: r.has_seer? ? r.seer : nil, winners: r.winners.to_a, reason: r.reason,
                decided_by: r.decided_by, pot: r.pot, payouts: r.payouts.to_h, hands: hands } }
end

def partition(stub, text, hands:, min_category:)
  request = Prial::V1::PartitionRequest.new(cards: cards(text), hands: hands, min_category: min_category.to_sym)
  r = stub.partition(request)
  { request: { cards: text, hands: hands, min_category: min_category },
    response: { hands: r.hands.map(&:bytes), discards: r.discards.bytes, strengths: r.strengths.to_a,
                categories: r.categories.map(&:to_s), descriptions: r.descriptions.to_a,
                candidates: r.candidates } }
end

def crash_showdown(stub, players, weights:)
  request = Prial::V1::CrashShowdownRequest.new(
    players: players.map do |p|
      Prial::V1::CrashPlayer.new(id: p[:id], hands: p[:hands].map { |h| cards(h) }, discards: cards(p[:discards]))
    end,
    weights: weights
  )
  r = stub.crash_showdown(request)
  positions = r.positions.map do |p|
    { winner: p.has_winner? ? p.winner : nil, stick_up: p.stick_up, reason: p.reason }
  end
  { request: { players: players, weights: weights },
    response: { points: r.points.to_h, crash: r.has_crash? ? r.crash : nil, void: r.void, positions: positions } }
end

# A refused request: INVALID_ARGUMENT, and in the trailers a google.rpc.Status
# (grpc-status-details-bin) whose details hold a BadRequest naming the field
# and the hand.
def bad_request(stub, hands)
  stub.evaluate(Prial::V1::EvaluateRequest.new(hand_size: hands.first.size, cards: hands.flatten.pack('C*')))
  fail_with('the server took an invalid batch')
rescue GRPC::BadStatus => e
  details = e.metadata['grpc-status-details-bin'] or fail_with("#{e.code}: #{e.details}, without a google.rpc.Status")
  status = Google::Rpc::Status.decode(details)
  violations = status.details.filter_map { |any| any.unpack(Google::Rpc::BadRequest) }.flat_map(&:field_violations)
  { request: { hands: hands },
    error: { code: status_code_name(e.code), message: e.details,
             field_violations: violations.map { |v| { field: v.field, description: v.description } } } }
end

def table_action(action)
  out = { player: action.player, kind: action.kind }
  out[:amount] = action.amount if action.has_amount?
  out
end

# The move a player makes: the second to act looks, stakes the least for a
# few turns, then sees when a see is allowed and folds otherwise.
def choose(state, step)
  legal = state.legal_actions.to_a
  pick = ->(kind) { legal.find { |a| a.kind == kind } }
  stake = pick.call('stake')
  chosen = if step == 1 && pick.call('look')
             pick.call('look')
           elsif step < 8 && stake
             Prial::V1::TableAction.new(kind: 'stake', amount: stake.least)
           else
             pick.call('see') || pick.call('fold')
           end
  move = { kind: chosen.kind, player: state.to_act }
  move[:amount] = chosen.amount if chosen.kind == 'stake'
  Prial::V1::TableAction.new(**move)
end

# A whole deal, a call per action.  prial keeps nothing between calls: each
# request carries the setup, the history the previous answer gave and the
# next action; an answer whose count of actions is not one more than the
# state's would be a stale one.
def play_table(stub, players, seed, stacks)
  setup = { table: Prial::V1::TableRules.new(game: :TABLE_GAME_BRAG), players: players, seed: seed, stacks: stacks }
  state = stub.play_table(Prial::V1::PlayTableRequest.new(**setup))
  submitted = []
  steps = []
  until state.over
    steps << { actions: state.actions, to_act: state.to_act, legal: state.legal_actions.map(&:kind) }
    action = choose(state, steps.size - 1)
    submitted << table_action(action)
    answer = stub.play_table(Prial::V1::PlayTableRequest.new(**setup, actions: state.history.map(&:dup),
                                                             action: action))
    stale = answer.actions != state.actions + 1
    fail_with("a stale answer: #{answer.actions} actions after #{state.actions}") if stale
    state = answer
  end
  r = state.result
  { request: { game: 'brag', players: players, seed: seed, stacks: stacks, actions: submitted },
    response: { steps: steps, actions: state.actions, over: state.over, stake: state.stake,
                pots: state.pots.map(&:amount),
                result: { known: r.known, winners: r.winners.to_a, payouts: r.payouts.to_h, nets: r.nets.to_h,
                          reason: r.reason, ending: r.ending } } }
end

def status_code_name(code)
  GRPC::Core::StatusCodes.constants.find { |name| GRPC::Core::StatusCodes.const_get(name) == code }.to_s
end

# An action the rules refuse: FAILED_PRECONDITION, the rule in the message,
# and among the status details a google.rpc.ErrorInfo whose reason is the
# rule's code.
def illegal_action(stub, players, seed)
  action = { player: players[2], kind: 'stake', amount: 1 }
  stub.play_table(Prial::V1::PlayTableRequest.new(table: Prial::V1::TableRules.new(game: :TABLE_GAME_BRAG),
                                                  players: players, seed: seed,
                                                  action: Prial::V1::TableAction.new(**action)))
  fail_with('the server took an illegal action')
rescue GRPC::BadStatus => e
  details = e.metadata['grpc-status-details-bin'] or fail_with("#{e.code}: #{e.details}, without a google.rpc.Status")
  info = Google::Rpc::Status.decode(details).details.filter_map { |any| any.unpack(Google::Rpc::ErrorInfo) }.first
  fail_with("#{e.code}: #{e.details}, without an ErrorInfo") unless info
  { request: { game: 'brag', players: players, seed: seed, action: action },
    error: { code: status_code_name(e.code), message: e.details, reason: info.reason, domain: info.domain,
             metadata: info.metadata.to_h } }
end

def calls(stub)
  {
    evaluate_three: evaluate(stub, [[7, 2, 50], [51, 47, 42], [23, 22, 40], [0, 5, 46]]),
    evaluate_five: evaluate(stub, [[51, 45, 22, 20, 3], [48, 44, 40, 36, 32], [50, 46, 42, 38, 12]]),
    showdown: showdown(stub, [{ id: 'a', cards: 'As Ad Kh 9c', stake: 5 }, { id: 'b', cards: 'Ac Ah Kd 7c', stake: 5 }],
                       seer: 'b', pot: 2),
    partition: partition(stub, 'Ah Ad 3c 4d 5s 9h 9c Kh Qs 7d 7c 2h Js', hands: 4, min_category: 'PAIR'),
    crash_showdown: crash_showdown(stub, [
      { id: 'a', hands: ['As Ad Ah', 'Ks Qs Js', '9h 9d 4c', '7c 7d 2s'], discards: '3h' },
      { id: 'b', hands: ['Kh Kd Kc', 'Qh Jh Th', '9s 9c 5d', '6s 5s 2h'], discards: '3c' }
    ], weights: [4, 3, 2, 1]),
    bad_request: bad_request(stub, [[7, 2, 50], [7, 7, 1]]),
    play_table: play_table(stub, %w[ann bob cat], 2026, [30, 30, 30]),
    illegal_action: illegal_action(stub, %w[ann bob cat], 2026)
  }
end

fail_with('usage: client.rb PROTO_DIR [HOST:PORT]') unless [1, 2].include?(ARGV.size)
proto_dir, target = ARGV
target ||= '127.0.0.1:50051'
Dir.mktmpdir('prial-ruby-') do |out|
  load_stubs(proto_dir, out)
  stub = Prial::V1::Prial::Stub.new(target, :this_channel_is_insecure, timeout: 10)
  puts JSON.pretty_generate(calls(stub))
rescue GRPC::BadStatus => e
  fail_with("#{target}: #{e.class.name.split('::').last} (#{e.code}): #{e.details}")
end
