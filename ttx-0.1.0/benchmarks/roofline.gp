set logscale xy
set xlabel 'arithmetic intensity (MACs per byte of L1 moved)'
set ylabel 'multiplier-array MACs per device cycle (each fidelity phase counts)'
set key bottom right
set grid
set title 'ttx cycle model: kernel library on one Wormhole Tensix tile'
set xrange [0.05:2000]
set yrange [1:4096]
peak = 2048
bw1 = 32
bw4 = 80
roof(x, bw) = (bw * x < peak) ? bw * x : peak
plot roof(x, bw1) lw 2 lc rgb '#888888' t 'roof: 2048 MACs/cycle, unpackers at x1 (32 B/cycle)', \
     roof(x, bw4) lw 1 dt 2 lc rgb '#888888' t 'unpackers at their best (80 B/cycle)', \
     'roofline.dat' u 1:2 w p pt 7 ps 1.2 lc rgb '#1f77b4' t 'kernels', \
     '' u 1:2:5 w labels left offset 0.8,0 font ',8' noenhanced notitle
