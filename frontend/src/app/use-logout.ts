import { useCallback } from "react";
import { useNavigate } from "react-router";
import { session } from "../lib/session";

export function useLogout() {
  const navigate = useNavigate();
  return useCallback(() => {
    session.clear();
    navigate("/", { replace: true });
  }, [navigate]);
}
