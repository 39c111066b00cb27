// The smallest Swift program that stays alive, built with the static Swift standard library:
// the floor under waymarkd's resident set (Scripts/bench-daemon measures its VmHWM).
import Glibc

_ = pause()
