package tntemporal_test

// A real Temporal server for the tests: go.temporal.io/server's own
// cmd/server, built from the Go module proxy once per version and Go
// release into the user's cache folder (toolnexus/tools under
// os.UserCacheDir, so that every clone shares it), started on loopback ports of its own with in-memory
// SQLite, once per test binary, and stopped by TestMain.
//
// TOOLNEXUS_TEMPORAL_SERVER names a server binary to use instead;
// TOOLNEXUS_TOOLS another folder for the built one. The tests that need
// the server skip, saying why, only when it cannot be built (no Go
// toolchain, no module proxy).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"google.golang.org/protobuf/types/known/durationpb"
)

// serverVersion is the go.temporal.io/server release the tests run:
// v1.32.0 is the latest whose go.mod asks for no newer Go than 1.26.8.
const serverVersion = "v1.32.0"

// testNamespace is the namespace the tests register and use.
const testNamespace = "toolnexus-test"

type server struct {
	addr    string
	cmd     *exec.Cmd
	dir     string
	log     *os.File
	skipMsg string
	err     error
}

var (
	srvOnce sync.Once
	srv     server
)

func TestMain(m *testing.M) {
	if os.Getenv(childWorkerEnv) != "" {
		os.Exit(runChildWorker())
	}
	code := m.Run()
	srv.stop()
	os.Exit(code)
}

// realServer returns the address of the test server, starting it on first
// use; it skips t when the server cannot be built.
func realServer(t testing.TB) string {
	t.Helper()
	var deadline time.Time
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		deadline, _ = d.Deadline()
	}
	srvOnce.Do(func() { srv.start(deadline) })
	if srv.skipMsg != "" {
		t.Skip(srv.skipMsg)
	}
	if srv.err != nil {
		t.Fatal(srv.err)
	}
	return srv.addr
}

// toolsDir is where built tools are kept: TOOLNEXUS_TOOLS, else the
// user's cache folder (toolnexus/tools in os.UserCacheDir, shared by
// every clone of the repository, so a fresh clone does not build the
// server again), else the repository's .tools (this module is
// integrations/temporal).
func toolsDir() (string, error) {
	if d := os.Getenv("TOOLNEXUS_TOOLS"); d != "" {
		return d, nil
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "toolnexus", "tools"), nil
	}
	return filepath.Abs(filepath.Join("..", "..", ".tools"))
}

// serverBinary returns the server's binary, building it when it is not
// there yet; skip says why the tests cannot have one.
func serverBinary(deadline time.Time) (bin, skip string, err error) {
	if b := os.Getenv("TOOLNEXUS_TEMPORAL_SERVER"); b != "" {
		return b, "", nil
	}
	tools, err := toolsDir()
	if err != nil {
		return "", "", err
	}
	dir := filepath.Join(tools, "temporal-server-"+serverVersion+"-"+runtime.Version())
	bin = filepath.Join(dir, "temporal-server")
	if _, err := os.Stat(bin); err == nil {
		return bin, "", nil
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", "no Temporal server: no go command to build go.temporal.io/server " + serverVersion + " with", nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	// Built into a folder of its own, then renamed: a build cut short
	// leaves nothing that looks finished.
	tmp, err := os.MkdirTemp(dir, "build-")
	if err != nil {
		return "", "", err
	}
	defer os.RemoveAll(tmp)
	fmt.Fprintf(os.Stderr, "tntemporal tests: building go.temporal.io/server %s into %s (once; about 10 minutes on 2 cores)\n", serverVersion, dir)
	start := time.Now()
	// The build must end before the test binary's -timeout, with time
	// left for the tests; the build cache keeps what it compiled, so a
	// build cut short goes on where it was at the next run.
	ctx := context.Background()
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(-3*time.Minute))
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, goBin, "install", "go.temporal.io/server/cmd/server@"+serverVersion)
	cmd.Env = append(os.Environ(), "GOBIN="+tmp, "GOWORK=off", "GOFLAGS=-buildvcs=false")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); ctx.Err() != nil {
		return "", fmt.Sprintf("no Temporal server: building go.temporal.io/server %s did not end %s before the test binary's -timeout; run the tests again (the build cache keeps what was compiled) or give them a longer -timeout", serverVersion, 3*time.Minute), nil
	} else if err != nil {
		msg := out.String()
		if len(msg) > 2000 {
			msg = "..." + msg[len(msg)-2000:]
		}
		return "", fmt.Sprintf("no Temporal server: go install go.temporal.io/server/cmd/server@%s failed (%v):\n%s", serverVersion, err, msg), nil
	}
	if err := os.Rename(filepath.Join(tmp, "server"), bin); err != nil {
		return "", "", err
	}
	fmt.Fprintf(os.Stderr, "tntemporal tests: built the server in %s\n", time.Since(start).Round(time.Second))
	return bin, "", nil
}

// freePorts returns n distinct free ports of 127.0.0.1.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports, nil
}

func (s *server) start(deadline time.Time) {
	bin, skip, err := serverBinary(deadline)
	if skip != "" || err != nil {
		s.skipMsg, s.err = skip, err
		return
	}
	s.err = s.run(bin)
}

func (s *server) run(bin string) error {
	ports, err := freePorts(9)
	if err != nil {
		return err
	}
	if s.dir, err = os.MkdirTemp("", "tntemporal-server-"); err != nil {
		return err
	}
	dyn := filepath.Join(s.dir, "dynamic.yaml")
	if err := os.WriteFile(dyn, []byte(dynamicConfig), 0o644); err != nil {
		return err
	}
	cfg := fmt.Sprintf(serverConfig, ports[0], ports[1], ports[2], ports[3], ports[4], ports[5], ports[6], ports[7], ports[8], ports[0], ports[1], dyn)
	cfgFile := filepath.Join(s.dir, "config.yaml")
	if err := os.WriteFile(cfgFile, []byte(cfg), 0o644); err != nil {
		return err
	}
	if s.log, err = os.Create(filepath.Join(s.dir, "server.log")); err != nil {
		return err
	}
	s.cmd = exec.Command(bin, "--config-file", cfgFile, "--allow-no-auth", "start")
	s.cmd.Dir = s.dir
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.addr = fmt.Sprintf("127.0.0.1:%d", ports[0])
	started := time.Now()
	if err := s.ready(); err != nil {
		return fmt.Errorf("temporal server at %s: %w\n%s", s.addr, err, s.logTail())
	}
	fmt.Fprintf(os.Stderr, "tntemporal tests: Temporal server %s on %s, ready in %s\n", serverVersion, s.addr, time.Since(started).Round(10*time.Millisecond))
	return nil
}

// ready waits until the server answers and the test namespace exists.
func (s *server) ready() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var last error
	for ctx.Err() == nil {
		if s.cmd.ProcessState != nil {
			return errors.New("the server exited")
		}
		last = s.register(ctx)
		if last == nil {
			return nil
		}
		time.Sleep(250 * time.Millisecond)
	}
	return fmt.Errorf("not ready in 3 minutes: %w", last)
}

func (s *server) register(ctx context.Context) error {
	nc, err := client.NewNamespaceClient(client.Options{HostPort: s.addr, Logger: quietLogger()})
	if err != nil {
		return err
	}
	defer nc.Close()
	if _, err := nc.Describe(ctx, testNamespace); err == nil {
		// Stored; the frontend knows it once its namespace cache has
		// been refreshed (every second here: dynamicConfig).
		c, err := client.Dial(client.Options{HostPort: s.addr, Namespace: testNamespace, Logger: quietLogger()})
		if err != nil {
			return err
		}
		defer c.Close()
		_, err = c.DescribeTaskQueue(ctx, "readiness", enumspb.TASK_QUEUE_TYPE_WORKFLOW)
		return err
	}
	err = nc.Register(ctx, &workflowservice.RegisterNamespaceRequest{
		Namespace:                        testNamespace,
		WorkflowExecutionRetentionPeriod: durationpb.New(24 * time.Hour),
	})
	if err != nil && !strings.Contains(err.Error(), "already") {
		return err
	}
	return errors.New("namespace registered, not yet described")
}

func (s *server) logTail() string {
	b, _ := os.ReadFile(filepath.Join(s.dir, "server.log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

func (s *server) stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}
	if s.log != nil {
		s.log.Close()
	}
	if s.dir != "" {
		os.RemoveAll(s.dir)
	}
}

// dial returns a client of the test server's namespace.
func dial(t testing.TB) client.Client {
	t.Helper()
	addr := realServer(t)
	c, err := client.Dial(client.Options{HostPort: addr, Namespace: testNamespace, Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// serverConfig is the server's configuration: every service on loopback,
// persistence in-memory SQLite (as the server's own
// config/development-sqlite.yaml, with ports of our own). Its verbs are
// the frontend's gRPC, HTTP and membership ports, the membership and
// gRPC ports of matching, history and worker, the frontend's gRPC and
// HTTP ports again (the cluster's addresses), and
// the dynamic config file.
const serverConfig = `log:
  stdout: true
  level: warn

persistence:
  defaultStore: sqlite-default
  visibilityStore: sqlite-visibility
  numHistoryShards: 1
  datastores:
    sqlite-default:
      sql:
        pluginName: "sqlite"
        databaseName: "default"
        connectAddr: "localhost"
        connectProtocol: "tcp"
        connectAttributes:
          mode: "memory"
          cache: "private"
        maxConns: 1
        maxIdleConns: 1
        maxConnLifetime: "1h"
    sqlite-visibility:
      sql:
        pluginName: "sqlite"
        databaseName: "default"
        connectAddr: "localhost"
        connectProtocol: "tcp"
        connectAttributes:
          mode: "memory"
          cache: "private"
        maxConns: 1
        maxIdleConns: 1
        maxConnLifetime: "1h"

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"

services:
  frontend:
    rpc:
      grpcPort: %d
      httpPort: %d
      membershipPort: %d
      bindOnLocalHost: true
  matching:
    rpc:
      membershipPort: %d
      grpcPort: %d
      bindOnLocalHost: true
  history:
    rpc:
      membershipPort: %d
      grpcPort: %d
      bindOnLocalHost: true
  worker:
    rpc:
      membershipPort: %d
      grpcPort: %d
      bindOnLocalHost: true

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "127.0.0.1:%[10]d"
      httpAddress: "127.0.0.1:%[11]d"

dcRedirectionPolicy:
  policy: "noop"

dynamicConfigClient:
  filepath: "%[12]s"
  pollInterval: "10s"
`

// dynamicConfig: one partition per task queue, so that a task is
// dispatched at once to the worker polling for it; the namespace cache
// refreshed every second, so that the test namespace is usable soon
// after it is registered.
const dynamicConfig = `system.namespaceCacheRefreshInterval:
  - value: 1s
matching.numTaskqueueReadPartitions:
  - value: 1
matching.numTaskqueueWritePartitions:
  - value: 1
`
