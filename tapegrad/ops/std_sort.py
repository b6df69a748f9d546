"""The order PyTorch's CPU ``sort`` and ``topk`` give ties.  Its non-stable sort is C++'s
``std::sort`` (libstdc++'s introsort) over (value, index) pairs, so the ties of a slice
longer than 16 come out in an order of that algorithm's making, not their input order; its
topk is ``std::nth_element`` or ``std::partial_sort``.  These functions run the same steps
(median-of-three pivot, unguarded partition, heaps past the depth limit, insertion sorts)
with PyTorch's comparator, in which NaN is the largest value, and give the same
permutations (pinned against PyTorch by tests/test_torch_scripts14.py).

They are plain Python, run only for slices that hold ties (without ties any sort agrees;
topk's unsorted k always), up to ``MAX_WORK`` values per call; beyond that the order stays
the stable one (ops/shape.py's ``_std_rows``)."""
MAX_WORK = 1 << 13  # values re-sorted in Python per call (8192: ~20 ms)
THRESHOLD = 16  # libstdc++'s _S_threshold: runs this short are left to insertion sort


def _algorithms(keys, descending):
    """libstdc++'s sort, nth_element and partial_sort over ``keys`` (a list) and their
    positions, with PyTorch's comparator; returns the positions list they permute."""
    k, idx = list(keys), list(range(len(keys)))
    if descending:
        def less(a, b):
            return (a != a and b == b) or a > b
    else:
        def less(a, b):
            return (a == a and b != b) or a < b

    def swap(i, j):
        k[i], k[j] = k[j], k[i]
        idx[i], idx[j] = idx[j], idx[i]

    def pivot(first, last):  # the median of three to first, then the unguarded partition
        a, b, c = first + 1, first + (last - first) // 2, last - 1
        if less(k[a], k[b]):
            swap(first, b if less(k[b], k[c]) else c if less(k[a], k[c]) else a)
        else:
            swap(first, a if less(k[a], k[c]) else c if less(k[b], k[c]) else b)
        lo, hi = first + 1, last
        while True:
            while less(k[lo], k[first]):
                lo += 1
            hi -= 1
            while less(k[first], k[hi]):
                hi -= 1
            if not lo < hi:
                return lo
            swap(lo, hi)
            lo += 1

    def sift(first, hole, n, vk, vi):  # __adjust_heap, then __push_heap
        top = second = hole
        while second < (n - 1) // 2:
            second = 2 * (second + 1)
            if less(k[first + second], k[first + second - 1]):
                second -= 1
            k[first + hole], idx[first + hole] = k[first + second], idx[first + second]
            hole = second
        if n % 2 == 0 and second == (n - 2) // 2:
            second = 2 * (second + 1)
            k[first + hole], idx[first + hole] = k[first + second - 1], idx[first + second - 1]
            hole = second - 1
        parent = (hole - 1) // 2
        while hole > top and less(k[first + parent], vk):
            k[first + hole], idx[first + hole] = k[first + parent], idx[first + parent]
            hole, parent = parent, (parent - 1) // 2
        k[first + hole], idx[first + hole] = vk, vi

    def pop(first, last, result):  # __pop_heap: the top goes to result
        vk, vi = k[result], idx[result]
        k[result], idx[result] = k[first], idx[first]
        sift(first, 0, last - first, vk, vi)

    def heap_select(first, middle, last):
        n = middle - first
        for parent in range((n - 2) // 2, -1, -1):
            sift(first, parent, n, k[first + parent], idx[first + parent])
        for i in range(middle, last):
            if less(k[i], k[first]):
                pop(first, middle, i)

    def sort_heap(first, last):
        while last - first > 1:
            last -= 1
            pop(first, last, last)

    def insertion(first, last, guarded_to):  # unguarded from guarded_to on
        for i in range(first + 1, last):
            if i < guarded_to and less(k[i], k[first]):
                vk, vi = k[i], idx[i]
                k[first + 1:i + 1], idx[first + 1:i + 1] = k[first:i], idx[first:i]
                k[first], idx[first] = vk, vi
            else:
                vk, vi, j = k[i], idx[i], i
                while less(vk, k[j - 1]):
                    k[j], idx[j] = k[j - 1], idx[j - 1]
                    j -= 1
                k[j], idx[j] = vk, vi

    def introsort(first, last, depth):  # heapsort past the depth limit
        while last - first > THRESHOLD:
            if depth == 0:
                heap_select(first, last, last)
                sort_heap(first, last)
                return
            depth -= 1
            cut = pivot(first, last)
            introsort(cut, last, depth)
            last = cut

    def sort(first, last):
        n = last - first
        if n > 1:
            introsort(first, last, 2 * (n.bit_length() - 1))  # (2 floor(lg n))
            insertion(first, last, first + THRESHOLD)

    def nth_element(first, nth, last):
        if first == last or nth == last:
            return
        depth = 2 * ((last - first).bit_length() - 1)
        while last - first > 3:
            if depth == 0:
                heap_select(first, nth + 1, last)
                swap(first, nth)
                return
            depth -= 1
            cut = pivot(first, last)
            if cut <= nth:
                first = cut
            else:
                last = cut
        insertion(first, last, last)

    def partial_sort(first, middle, last):
        heap_select(first, middle, last)
        sort_heap(first, middle)

    return idx, sort, nth_element, partial_sort


def sort_order(keys, descending):
    """The permutation std::sort makes of ``keys`` (PyTorch's ``sort``)."""
    idx, sort, _, _ = _algorithms(keys, descending)
    sort(0, len(idx))
    return idx


def topk_order(keys, k, largest, sorted_=True):
    """The positions of PyTorch's ``topk``: a partial_sort when k is at most 1/64 of the
    values, else nth_element, then (if ``sorted_``) a sort of the k - 1 before the k-th."""
    idx, sort, nth, partial = _algorithms(keys, largest)
    n = len(idx)
    if k * 64 <= n:
        partial(0, k, n)
    else:
        nth(0, k - 1, n)
        if sorted_:
            sort(0, k - 1)
    return idx[:k]


def quick_select_index(keys, k):
    """The position ATen's own quick select (``kthvalue``'s) leaves at rank ``k`` of
    ``keys``: median-of-three pivots and Hoare partitions, NaN the largest value."""
    a, idx = list(keys), list(range(len(keys)))

    def greater(x, y):
        return (x != x and y == y) or x > y

    def swap(i, j):
        a[i], a[j] = a[j], a[i]
        idx[i], idx[j] = idx[j], idx[i]

    lo, hi = 0, len(a) - 1
    while hi > lo:
        if hi == lo + 1:
            if greater(a[lo], a[hi]):
                swap(lo, hi)
            break
        swap(lo + (hi - lo) // 2, lo + 1)  # the median of three to lo, the pivot
        if greater(a[lo + 1], a[hi]):
            swap(lo + 1, hi)
        if greater(a[lo], a[hi]):
            swap(lo, hi)
        if greater(a[lo + 1], a[lo]):
            swap(lo + 1, lo)
        i, j, pivot = lo + 1, hi, a[lo]
        while True:
            i += 1
            while greater(pivot, a[i]):
                i += 1
            j -= 1
            while greater(a[j], pivot):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return idx[k]
