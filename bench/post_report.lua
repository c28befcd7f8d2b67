-- wrk script: post the real full report captured from MariaDB 10.11, as the plugin does.
local f = assert(io.open(os.getenv("REPORT_BODY_FILE"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*all")
f:close()
wrk.headers["Content-Type"] = "multipart/form-data; boundary=--------------------------ba4f3696b39f"
wrk.headers["User-Agent"] = "MariaDB User Feedback Plugin"
