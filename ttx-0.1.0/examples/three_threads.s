# Three cooperating threads in the LLK style (issue: front end and control).
#
#   ./ttx run examples/three_threads.s --stats --dst-out out.dst
#
# Thread 0 (producer, the unpacker's role) fills two 16-row Dst regions with
# x = (2 * lane + 2) * 2^r and posts semaphore 0 after each.  Thread 1 (math)
# waits for it, then runs the SFPU kernel y = x * x + 1.0 over the region
# through a MOP whose inner loop plays back a 4-instruction replay buffer, and
# posts semaphore 1.  Thread 2 (the packer's role) waits for that and copies
# the region to Dst rows 64 + 16 r.  tests/test_examples.c checks the result.
#
# Semaphores: 0 = "region filled", 1 = "region computed".  SEMWAIT blocks the
# Sync Unit and the SFPU (B1 | B8 = 0x102) while the semaphore's value is 0
# (C0); the SEMGET after it then takes the token.

# ---- thread 1's MOP template 1: 1 x 4 iterations of REPLAY 0, 4 (play) ----
.thread 1
.mmio 0xFFB80000, 1            # OuterCount
.mmio 0xFFB80004, 4            # InnerCount
.mmio 0xFFB80008, 0x02000000   # StartOp: NOP (skipped)
.mmio 0xFFB8000C, 0x02000000   # EndOp0: NOP (skipped)
.mmio 0xFFB80010, 0x02000000   # EndOp1
.mmio 0xFFB80014, 0x04000040   # LoopOp: REPLAY 0, 4, 0, 0
.mmio 0xFFB80018, 0x02000000   # LoopOp1: NOP (no alternation)
.mmio 0xFFB8001C, 0x04000040   # Loop0Last
.mmio 0xFFB80020, 0x04000040   # Loop1Last

# ---- thread 0: producer ----
.thread 0
SEMINIT 2, 0, 0b11             # semaphores 0 and 1: max 2, value 0
SFPIADD 2, 15, 4, 5            # L4 = L15 + 2 = 2 * lane + 2 (integer)
SFPCAST 4, 4, 0                # L4 = float(L4)
SFPDIVP2 0, 4, 5, 1              # L5 = L4 * 2^0 (exponent += 0)
SFPSTORE 5, 3, 0, 0              # FP32 rows 0-3
SFPSTORE 5, 3, 0, 4              # FP32 rows 4-7
SFPSTORE 5, 3, 0, 8              # FP32 rows 8-11
SFPSTORE 5, 3, 0, 12               # FP32 rows 12-15
SEMPOST 0b01                   # region 0 filled
SFPDIVP2 1, 4, 5, 1              # L5 = L4 * 2^1 (exponent += 1)
SFPSTORE 5, 3, 0, 16               # FP32 rows 16-19
SFPSTORE 5, 3, 0, 20               # FP32 rows 20-23
SFPSTORE 5, 3, 0, 24               # FP32 rows 24-27
SFPSTORE 5, 3, 0, 28               # FP32 rows 28-31
SEMPOST 0b01                   # region 1 filled

# ---- thread 1: math ----
.thread 1
SETC16 24, 4                   # ADDR_MOD_DST_SEC1_DestIncr = 4 (ThreadConfig 24)
REPLAY 0, 4, 0, 1              # record the next 4 instructions (not executed)
SFPLOAD 0, 3, 0, 0             #   L0 = Dst rows RWC.Dst .. +3 (FP32)
SFPMAD 0, 0, 10, 1, 0          #   L1 = L0 * L0 + L10 (1.0)
SFPNOP                         #   the MAD result is ready a cycle later
SFPSTORE 1, 3, 1, 0            #   Dst = L1, then ADDR_MOD 1: RWC.Dst += 4
SEMWAIT 0x102, 0b01, 1          # wait for region 0
SEMGET 0b01
MOP 1, 0, 0                    # 4 x replay: 16 rows
SEMPOST 0b10                   # region 0 computed
SEMWAIT 0x102, 0b01, 1          # wait for region 1
SEMGET 0b01
MOP 1, 0, 0                    # 4 x replay: 16 rows
SEMPOST 0b10                   # region 1 computed

# ---- thread 2: packer stand-in ----
.thread 2
SEMWAIT 0x102, 0b10, 1          # wait for region 0
SEMGET 0b10
SFPLOAD 2, 3, 0, 0
SFPSTORE 2, 3, 0, 64
SFPLOAD 2, 3, 0, 4
SFPSTORE 2, 3, 0, 68
SFPLOAD 2, 3, 0, 8
SFPSTORE 2, 3, 0, 72
SFPLOAD 2, 3, 0, 12
SFPSTORE 2, 3, 0, 76
SEMWAIT 0x102, 0b10, 1          # wait for region 1
SEMGET 0b10
SFPLOAD 2, 3, 0, 16
SFPSTORE 2, 3, 0, 80
SFPLOAD 2, 3, 0, 20
SFPSTORE 2, 3, 0, 84
SFPLOAD 2, 3, 0, 24
SFPSTORE 2, 3, 0, 88
SFPLOAD 2, 3, 0, 28
SFPSTORE 2, 3, 0, 92
