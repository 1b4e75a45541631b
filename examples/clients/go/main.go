// Command client is a Go client of prial.v1.Prial, its package prialv1
// generated from prial/v1/prial.proto alone by protoc-gen-go and
// protoc-gen-go-grpc (run.sh does it).  The google.rpc error details come
// from google.golang.org/genproto, which grpc-go itself depends on.  It calls
// Evaluate (three- and five-card hands as bytes), Showdown, Partition,
// CrashShowdown and a bad Evaluate, plays a whole deal at the betting table
// with PlayTable and makes an illegal move, and prints one JSON document:
// each call's request and answer, for the bad request the BadRequest it
// decodes, for the illegal move the ErrorInfo.
//
//	prial proto --out protos
//	examples/clients/go/run.sh protos 127.0.0.1:50051
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "prialclient/prialv1"
)

type object = map[string]interface{}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "client: error: "+format+"\n", args...)
	os.Exit(1)
}

func must(err error, call string) {
	if err != nil {
		fail("%s: %v", call, err)
	}
}

func flatten(hands [][]byte) []byte {
	var cards []byte
	for _, hand := range hands {
		cards = append(cards, hand...)
	}
	return cards
}

// Category codes travel as one byte per hand; zero is HIGH_CARD, a real
// category, not "unspecified".
func categoryNames(codes []byte) []string {
	names := make([]string, len(codes))
	for i, code := range codes {
		names[i] = pb.Category(code).String()
	}
	return names
}

func ints(hands [][]byte) [][]int {
	out := make([][]int, len(hands))
	for i, hand := range hands {
		out[i] = bytesToInts(hand)
	}
	return out
}

func bytesToInts(b []byte) []int {
	out := make([]int, len(b))
	for i, c := range b {
		out[i] = int(c)
	}
	return out
}

func evaluate(ctx context.Context, client pb.PrialClient, hands [][]byte) object {
	size := len(hands[0])
	r, err := client.Evaluate(ctx, &pb.EvaluateRequest{HandSize: uint32(size), Cards: flatten(hands)})
	must(err, "Evaluate")
	strengths := make([]uint16, r.Count)
	for i := range strengths {
		strengths[i] = binary.LittleEndian.Uint16(r.Strengths[2*i:])
	}
	answer := object{"count": r.Count, "strengths": strengths, "categories": categoryNames(r.Categories)}
	if size > 3 { // best-of keys, four and five cards only
		keys := make([]uint32, r.Count)
		for i := range keys {
			keys[i] = binary.LittleEndian.Uint32(r.Keys[4*i:])
		}
		answer["keys"] = keys
	}
	return object{"request": object{"hands": ints(hands)}, "response": answer}
}

func text(cards string) *pb.Cards {
	return &pb.Cards{Form: &pb.Cards_Text{Text: cards}}
}

// optional proto3 fields are pointers: nil when unset.
func orNull(s *string) interface{} {
	if s == nil {
		return nil
	}
	return *s
}

type player struct {
	ID    string `json:"id"`
	Cards string `json:"cards"`
	Stake uint64 `json:"stake"`
}

func showdown(ctx context.Context, client pb.PrialClient, players []player, seer string, pot uint64) object {
	request := &pb.ShowdownRequest{Seer: &seer, Pot: pot}
	for _, p := range players {
		request.Players = append(request.Players, &pb.Player{Id: p.ID, Cards: text(p.Cards), Stake: p.Stake})
	}
	r, err := client.Showdown(ctx, request)
	must(err, "Showdown")
	hands := []object{}
	for _, h := range r.Hands {
		hands = append(hands, object{"id": h.Id, "key": h.Key, "category": h.Category.String(),
			"description": h.Description})
	}
	return object{
		"request": object{"players": players, "seer": seer, "pot": pot},
		"response": object{"kind": r.Kind, "seer": orNull(r.Seer), "winners": r.Winners, "reason": r.Reason,
			"decided_by": r.DecidedBy, "pot": r.Pot, "payouts": r.Payouts, "hands": hands},
	}
}

func partition(ctx context.Context, client pb.PrialClient, cards string, hands uint32, floor pb.Category) object {
	r, err := client.Partition(ctx, &pb.PartitionRequest{Cards: text(cards), Hands: &hands, MinCategory: &floor})
	must(err, "Partition")
	categories := []string{}
	for _, c := range r.Categories {
		categories = append(categories, c.String())
	}
	return object{
		"request": object{"cards": cards, "hands": hands, "min_category": floor.String()},
		"response": object{"hands": ints(r.Hands), "discards": bytesToInts(r.Discards), "strengths": r.Strengths,
			"categories": categories, "descriptions": r.Descriptions, "candidates": r.Candidates},
	}
}

type crashPlayer struct {
	ID       string   `json:"id"`
	Hands    []string `json:"hands"`
	Discards string   `json:"discards"`
}

func crashShowdown(ctx context.Context, client pb.PrialClient, players []crashPlayer, weights []uint32) object {
	request := &pb.CrashShowdownRequest{Weights: weights}
	for _, p := range players {
		declared := &pb.CrashPlayer{Id: p.ID, Discards: text(p.Discards)}
		for _, hand := range p.Hands {
			declared.Hands = append(declared.Hands, text(hand))
		}
		request.Players = append(request.Players, declared)
	}
	r, err := client.CrashShowdown(ctx, request)
	must(err, "CrashShowdown")
	positions := []object{}
	for _, p := range r.Positions {
		positions = append(positions, object{"winner": orNull(p.Winner), "stick_up": p.StickUp, "reason": p.Reason})
	}
	return object{
		"request": object{"players": players, "weights": weights},
		"response": object{"points": r.Points, "crash": orNull(r.Crash), "void": r.Void,
			"positions": positions},
	}
}

// codeName is the status code's canonical name (INVALID_ARGUMENT), the one
// every gRPC language shares, rather than Go's InvalidArgument.
func codeName(code codes.Code) string {
	var name strings.Builder
	previous := ' '
	for _, r := range code.String() {
		if unicode.IsUpper(r) && unicode.IsLower(previous) {
			name.WriteByte('_')
		}
		name.WriteRune(unicode.ToUpper(r))
		previous = r
	}
	return name.String()
}

// A refused request: INVALID_ARGUMENT, and among the status details (the
// google.rpc.Status of the trailers) a BadRequest naming the field and the
// hand.
func badRequest(ctx context.Context, client pb.PrialClient, hands [][]byte) object {
	_, err := client.Evaluate(ctx, &pb.EvaluateRequest{HandSize: uint32(len(hands[0])), Cards: flatten(hands)})
	if err == nil {
		fail("the server took an invalid batch")
	}
	st := status.Convert(err)
	violations := []object{}
	for _, detail := range st.Details() {
		if bad, ok := detail.(*errdetails.BadRequest); ok {
			for _, v := range bad.FieldViolations {
				violations = append(violations, object{"field": v.Field, "description": v.Description})
			}
		}
	}
	return object{
		"request": object{"hands": ints(hands)},
		"error":   object{"code": codeName(st.Code()), "message": st.Message(), "field_violations": violations},
	}
}

func tableAction(a *pb.TableAction) object {
	out := object{"player": a.GetPlayer(), "kind": a.Kind}
	if a.Amount != nil {
		out["amount"] = *a.Amount
	}
	return out
}

// choose is the move a player makes: the second to act looks, stakes the
// least for a few turns, then sees when a see is allowed and folds
// otherwise.
func choose(state *pb.PlayTableResponse, step int) *pb.TableAction {
	legal := map[string]*pb.TableAction{}
	for _, a := range state.LegalActions {
		legal[a.Kind] = a
	}
	player := state.GetToAct()
	move := &pb.TableAction{Player: &player}
	if _, ok := legal["look"]; ok && step == 1 {
		move.Kind = "look"
	} else if stake, ok := legal["stake"]; ok && step < 8 {
		least := stake.GetLeast()
		move.Kind, move.Amount = "stake", &least
	} else if _, ok := legal["see"]; ok {
		move.Kind = "see"
	} else {
		move.Kind = "fold"
	}
	return move
}

// playTable plays a whole deal, a call per action.  prial keeps nothing
// between calls: each request carries the setup, the history the previous
// answer gave and the next action; an answer whose count of actions is not
// one more than the state's would be a stale one.
func playTable(ctx context.Context, client pb.PrialClient, players []string, seed uint64, stacks []uint64) object {
	request := func(history []*pb.TableAction, action *pb.TableAction) *pb.PlayTableRequest {
		return &pb.PlayTableRequest{Table: &pb.TableRules{Game: pb.TableGame_TABLE_GAME_BRAG}, Players: players,
			Seed: &seed, Stacks: stacks, Actions: history, Action: action}
	}
	state, err := client.PlayTable(ctx, request(nil, nil))
	must(err, "PlayTable")
	submitted, steps := []object{}, []object{}
	for !state.Over {
		legal := []string{}
		for _, a := range state.LegalActions {
			legal = append(legal, a.Kind)
		}
		steps = append(steps, object{"actions": state.Actions, "to_act": state.GetToAct(), "legal": legal})
		action := choose(state, len(steps)-1)
		submitted = append(submitted, tableAction(action))
		answer, err := client.PlayTable(ctx, request(state.History, action))
		must(err, "PlayTable")
		if answer.Actions != state.Actions+1 {
			fail("a stale answer: %d actions after %d", answer.Actions, state.Actions)
		}
		state = answer
	}
	pots := []uint64{}
	for _, p := range state.Pots {
		pots = append(pots, p.Amount)
	}
	r := state.Result
	return object{
		"request": object{"game": "brag", "players": players, "seed": seed, "stacks": stacks, "actions": submitted},
		"response": object{"steps": steps, "actions": state.Actions, "over": state.Over, "stake": state.Stake,
			"pots": pots, "result": object{"known": r.Known, "winners": r.Winners, "payouts": r.Payouts,
				"nets": r.Nets, "reason": r.Reason, "ending": r.Ending}},
	}
}

// illegalAction sends an action the rules refuse: FAILED_PRECONDITION, the
// rule in the message, and among the status details an ErrorInfo whose
// reason is the rule's code.
func illegalAction(ctx context.Context, client pb.PrialClient, players []string, seed uint64) object {
	player, amount := players[2], uint64(1)
	_, err := client.PlayTable(ctx, &pb.PlayTableRequest{Table: &pb.TableRules{Game: pb.TableGame_TABLE_GAME_BRAG},
		Players: players, Seed: &seed, Action: &pb.TableAction{Kind: "stake", Player: &player, Amount: &amount}})
	if err == nil {
		fail("the server took an illegal action")
	}
	st := status.Convert(err)
	for _, detail := range st.Details() {
		if info, ok := detail.(*errdetails.ErrorInfo); ok {
			return object{
				"request": object{"game": "brag", "players": players, "seed": seed,
					"action": object{"player": player, "kind": "stake", "amount": amount}},
				"error": object{"code": codeName(st.Code()), "message": st.Message(), "reason": info.Reason,
					"domain": info.Domain, "metadata": info.Metadata},
			}
		}
	}
	fail("%s: %s, without an ErrorInfo", codeName(st.Code()), st.Message())
	return nil
}

func main() {
	if len(os.Args) > 2 {
		fail("usage: client [HOST:PORT]")
	}
	target := "127.0.0.1:50051"
	if len(os.Args) == 2 {
		target = os.Args[1]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := grpc.DialContext(ctx, target, grpc.WithInsecure(), grpc.WithBlock())
	must(err, target)
	defer conn.Close()
	client := pb.NewPrialClient(conn)
	answers := object{
		"evaluate_three": evaluate(ctx, client, [][]byte{{7, 2, 50}, {51, 47, 42}, {23, 22, 40}, {0, 5, 46}}),
		"evaluate_five":  evaluate(ctx, client, [][]byte{{51, 45, 22, 20, 3}, {48, 44, 40, 36, 32}, {50, 46, 42, 38, 12}}),
		"showdown":       showdown(ctx, client, []player{{"a", "As Ad Kh 9c", 5}, {"b", "Ac Ah Kd 7c", 5}}, "b", 2),
		"partition":      partition(ctx, client, "Ah Ad 3c 4d 5s 9h 9c Kh Qs 7d 7c 2h Js", 4, pb.Category_PAIR),
		"crash_showdown": crashShowdown(ctx, client, []crashPlayer{
			{"a", []string{"As Ad Ah", "Ks Qs Js", "9h 9d 4c", "7c 7d 2s"}, "3h"},
			{"b", []string{"Kh Kd Kc", "Qh Jh Th", "9s 9c 5d", "6s 5s 2h"}, "3c"},
		}, []uint32{4, 3, 2, 1}),
		"bad_request":    badRequest(ctx, client, [][]byte{{7, 2, 50}, {7, 7, 1}}),
		"play_table":     playTable(ctx, client, []string{"ann", "bob", "cat"}, 2026, []uint64{30, 30, 30}),
		"illegal_action": illegalAction(ctx, client, []string{"ann", "bob", "cat"}, 2026),
	}
	out, err := json.MarshalIndent(answers, "", "  ")
	must(err, "JSON")
	fmt.Println(string(out))
}
