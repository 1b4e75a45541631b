#!/usr/bin/env ruby
# frozen_string_literal: true

# A Ruby client of prial.v1.Prial, made from the .proto files alone: its
# stubs are generated when it starts, into a temporary directory, by
# grpc_tools_ruby_protoc (Debian: apt-get install ruby-grpc ruby-grpc-tools
# libprotobuf-dev, the last for protobuf's own .proto files; elsewhere: gem
# install grpc grpc-tools).  It calls Evaluate (three- and five-card hands
# as bytes), Showdown, Partition, CrashShowdown and a bad Evaluate, and
# prints one JSON document: each call's request and answer, and for the bad
# request the google.rpc.BadRequest it decodes.
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
  code = GRPC::Core::StatusCodes.constants.find { |name| GRPC::Core::StatusCodes.const_get(name) == e.code }
  { request: { hands: hands },
    error: { code: code.to_s, message: e.details,
             field_violations: violations.map { |v| { field: v.field, description: v.description } } } }
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
    bad_request: bad_request(stub, [[7, 2, 50], [7, 7, 1]])
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
