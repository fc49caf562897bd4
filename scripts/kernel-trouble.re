BUG[: ]|WARNING:|Oops|general protection|Call Trace:|UBSAN|KASAN|refcount_t:|memory leak|still has objects|Objects remaining|kobject: .*(already|no release)|waiting for .* to become free
