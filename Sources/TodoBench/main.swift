// Parses and indexes a todo.txt file several times and reports the best and median times,
// throughput and the process's peak memory. Usage: todo-bench FILE [RUNS]
@preconcurrency import Glibc
import TodoTxt

func readFile(_ path: String) -> [UInt8]? {
  let fd = open(path, O_RDONLY)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var info = stat()
  guard fstat(fd, &info) == 0 else { return nil }
  let size = Int(info.st_size)
  var bytes = [UInt8](repeating: 0, count: size)
  var done = 0
  while done < size {
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
    if n <= 0 { return nil }
    done += n
  }
  return bytes
}

func now() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
  fputs("usage: todo-bench FILE [RUNS]\n", stderr)
  exit(2)
}
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
var parseTimes: [Double] = []
var totalTimes: [Double] = []
var summary = ""
for _ in 0..<runs {
  let t0 = now()
  guard let bytes = readFile(arguments[1]) else {
    fputs("todo-bench: cannot read '\(arguments[1])'\n", stderr)
    exit(1)
  }
  let t1 = now()
  let list = TodoList(bytes: bytes)
  let t2 = now()
  let index = TodoIndex(list)
  let t3 = now()
  parseTimes.append(t2 - t1)
  totalTimes.append(t3 - t1)
  summary =
    "\(bytes.count) bytes, \(list.count) lines, \(index.taskCount) tasks, \(index.completedCount) done, "
    + "\(index.projects.count) projects, \(index.contexts.count) contexts, \(index.tagKeys.count) tag keys, "
    + "\(index.dueDates.count) due dates (read \(String(format3(t1 - t0))) s)"
}
func format3(_ x: Double) -> String {
  let ms = Int((x * 1000).rounded())
  return "\(ms / 1000).\(String(repeating: "0", count: 3 - String(ms % 1000).count))\(ms % 1000)"
}
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
let sortedTotal = totalTimes.sorted()
let sortedParse = parseTimes.sorted()
let size = Double(readFile(arguments[1])?.count ?? 0)
print(summary)
print("split into lines: median \(format3(sortedParse[runs / 2])) s")
print("parse + index:    median \(format3(sortedTotal[runs / 2])) s, best \(format3(sortedTotal[0])) s, \(Int(size / sortedTotal[runs / 2] / 1e6)) MB/s")
print("peak memory:      \(usage.ru_maxrss / 1024) MiB (file \(Int(size) / 1_048_576) MiB)")
